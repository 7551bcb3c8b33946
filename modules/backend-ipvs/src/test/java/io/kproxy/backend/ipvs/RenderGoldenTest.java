package io.kproxy.backend.ipvs;

import static io.kproxy.backend.testkit.States.ep;
import static io.kproxy.backend.testkit.States.port;
import static io.kproxy.backend.testkit.States.terminating;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.testkit.States;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Protocol;
import io.kproxy.testkit.Golden;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rendered ruleset of a table of Services, one golden file per scenario
 * ({@code golden/ipvs/<scenario>.txt}): virtual and real servers as {@code ipvsadm-save -n},
 * set members as {@code ipset save}, addresses, and the helper rules as {@code iptables-restore}
 * input. Each scenario's IPv4 load text is a golden file too ({@code <scenario>.v4.load}).
 */
class RenderGoldenTest {

    static Stream<Arguments> scenarios() {
        return Stream.of(
                Arguments.of("clusterip", List.of(IpvsStates.web(), IpvsStates.dns())),
                Arguments.of("nodeport", List.of(
                        port("ns2", "np", "p", "172.30.0.42", 80).with(p -> {
                            p.nodePort = 30080;
                            p.endpoints.add(ep("10.180.0.2", 80, true));
                            return p;
                        }),
                        port("ns2", "np-udp", "p", "172.30.0.43", 53).with(p -> {
                            p.protocol = Protocol.UDP;
                            p.nodePort = 30053;
                            p.endpoints.add(ep("10.180.2.2", 53, false));
                            return p;
                        }),
                        port("ns2", "np-sctp", "p", "172.30.0.44", 7777).with(p -> {
                            p.protocol = Protocol.SCTP;
                            p.nodePort = 30777;
                            p.endpoints.add(ep("10.180.2.3", 7777, false));
                            return p;
                        }))),
                Arguments.of("externalip", List.of(port("ns3", "ext", "p", "172.30.0.45", 80).with(p -> {
                    p.externalIPs.add("192.168.99.11");
                    p.externalIPs.add("192.168.0.2");
                    p.endpoints.add(ep("10.180.0.3", 80, false));
                    return p;
                }))),
                Arguments.of("lb-source-ranges", List.of(
                        port("ns4", "lb", "p", "172.30.0.46", 80).with(p -> {
                            p.nodePort = 30046;
                            p.lbIPs.add("1.2.3.4");
                            p.sourceRanges.add("203.0.113.0/25");
                            p.sourceRanges.add("192.168.0.0/24");
                            p.endpoints.add(ep("10.180.0.4", 80, false));
                            return p;
                        }),
                        port("ns4", "lb-closed", "p", "172.30.0.47", 443).with(p -> {
                            p.nodePort = 30047;
                            p.lbIPs.add("1.2.3.5");
                            p.sourceRanges.add("203.0.113.0/25");
                            p.endpoints.add(ep("10.180.0.5", 443, false));
                            return p;
                        }))),
                Arguments.of("etp-local", List.of(port("ns5", "etp", "p", "172.30.0.48", 80).with(p -> {
                    p.nodePort = 30048;
                    p.lbIPs.add("5.6.7.8");
                    p.externalIPs.add("192.168.99.12");
                    p.etpLocal = true;
                    p.healthCheckNodePort = 30000;
                    p.endpoints.add(ep("10.180.0.6", 80, true));
                    p.endpoints.add(ep("10.180.1.6", 80, false));
                    return p;
                }))),
                Arguments.of("itp-local", List.of(port("ns6", "itp", "p", "172.30.0.49", 80).with(p -> {
                    p.itpLocal = true;
                    p.endpoints.add(ep("10.180.0.7", 80, true));
                    p.endpoints.add(ep("10.180.1.7", 80, false));
                    return p;
                }), port("ns6", "itp-remote", "p", "172.30.0.50", 80).with(p -> {
                    p.itpLocal = true;
                    p.endpoints.add(ep("10.180.1.8", 80, false));
                    return p;
                }))),
                Arguments.of("affinity", List.of(port("ns7", "sticky", "p", "172.30.0.51", 80).with(p -> {
                    p.affinity = 10800;
                    p.nodePort = 30051;
                    p.endpoints.add(ep("10.180.0.9", 80, false));
                    p.endpoints.add(terminating("10.180.1.9", 80, false, true));
                    return p;
                }))),
                Arguments.of("no-endpoints", List.of(port("ns8", "empty", "p", "172.30.0.52", 80).with(p -> {
                    p.nodePort = 30052;
                    return p;
                }), port("ns8", "terminating-only", "p", "172.30.0.53", 80).with(p -> {
                    p.endpoints.add(terminating("10.180.0.10", 80, true, true));
                    p.endpoints.add(terminating("10.180.1.10", 80, false, false));
                    return p;
                }))),
                Arguments.of("ipv6", List.of(port("ns9", "v6", "p", "fd00:30::41", 80).with(p -> {
                    p.nodePort = 30090;
                    p.lbIPs.add("2001:db8::5");
                    p.sourceRanges.add("2001:db8:1::/48");
                    p.endpoints.add(ep("fd00:10::1", 8080, true));
                    p.endpoints.add(ep("fd00:10:1::1", 8080, false));
                    return p;
                }), IpvsStates.web())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void rendersAsGolden(String scenario, List<States.PortSpec> specs) {
        IpvsPlan plan = new PlanRenderer(true).render(IpvsStates.state(specs));
        Golden.assertMatches("ipvs/" + scenario + ".txt", plan.rulesetText());
        Golden.assertMatches("ipvs/" + scenario + ".v4.load", plan.loadableText(IpFamily.IPV4));
        assertThat(plan.servicePorts()).isEqualTo(specs.stream().mapToInt(s -> 1).sum());
    }
}
