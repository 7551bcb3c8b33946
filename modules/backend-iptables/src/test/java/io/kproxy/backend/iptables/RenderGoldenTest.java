package io.kproxy.backend.iptables;

import static io.kproxy.backend.testkit.States.ep;
import static io.kproxy.backend.testkit.States.port;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.testkit.States;
import io.kproxy.backend.testkit.UpstreamScenarios;
import io.kproxy.model.Protocol;
import io.kproxy.state.LocalDetector;
import io.kproxy.state.NodePortAddresses;
import io.kproxy.state.NodeState;
import io.kproxy.state.ServicePortState;
import io.kproxy.testkit.Golden;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Byte compatibility with upstream's expected dumps, and golden rulesets of the feature
 * scenarios (each also accepted by {@code iptables-restore --test} in {@code IptKernelIT}).
 */
class RenderGoldenTest {

    static String resource(String path) {
        try (InputStream in = RenderGoldenTest.class.getResourceAsStream(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Upstream's fake proxier writes the mark as the literal {@code 0x4000}; its real
     * {@code NewProxier} formats {@code %#08x}, giving {@code 0x00004000} (same kernel rule).
     */
    static String upstreamMark(String text) {
        return text.replace("0x00004000", "0x4000");
    }

    @Test
    void overallIPTablesRulesEqualUpstreamsExpectedDump() {
        IptPlan plan = new PlanRenderer(Features.UPSTREAM_TEST).render(IptStates.state(UpstreamScenarios.overall()));
        String ours = upstreamMark(UpstreamSort.section(plan.rulesetText(), Fam.V4));
        assertThat(UpstreamSort.sort(ours)).isEqualTo(resource("/upstream/overall-iptables.txt"));
    }

    @Test
    void upstreamOverallScenarioWithThisNodesFeatures() {
        Golden.assertMatches("iptables/overall.txt", new PlanRenderer(Features.DEFAULT).render(IptStates.state(UpstreamScenarios.overall()))
                .rulesetText());
    }

    static List<ServicePortState> featureScenario() {
        return List.of(
                port("ns1", "dual", "http", "fd00:30::41", 80).with(p -> {
                    p.endpoints.add(ep("fd00:10:0:1::11", 8080, true));
                    p.endpoints.add(ep("fd00:10:0:2::11", 8080, false));
                    p.affinity = 60;
                    return p;
                }).build(),
                port("ns1", "udp", "dns", "172.30.0.53", 53).with(p -> {
                    p.protocol = Protocol.UDP;
                    p.nodePort = 30053;
                    p.endpoints.add(ep("10.0.1.11", 5353, true));
                    return p;
                }).build(),
                port("ns1", "sctp", "", "172.30.0.60", 9999).with(p -> {
                    p.protocol = Protocol.SCTP;
                    p.endpoints.add(ep("10.0.1.12", 9999, true));
                    return p;
                }).build(),
                port("ns2", "local", "p80", "172.30.0.70", 80).with(p -> {
                    p.itpLocal = true;
                    p.endpoints.add(ep("10.0.2.11", 80, false));
                    return p;
                }).build(),
                port("ns2", "lb", "p80", "172.30.0.71", 80).with(p -> {
                    p.nodePort = 30071;
                    p.etpLocal = true;
                    p.healthCheckNodePort = 32071;
                    p.lbIPs.add("198.51.100.71");
                    p.sourceRanges.add("203.0.113.0/25");
                    p.sourceRanges.add("192.168.0.0/24");
                    p.endpoints.add(ep("10.0.1.11", 80, true));
                    p.endpoints.add(ep("10.0.2.11", 80, false));
                    return p;
                }).build(),
                port("ns2", "lb6", "p80", "fd00:30::71", 80).with(p -> {
                    p.nodePort = 30071;
                    p.externalIPs.add("fd00:99::71");
                    p.lbIPs.add("fd00:51::71");
                    p.sourceRanges.add("fd00:203::/121");
                    p.endpoints.add(ep("fd00:10:0:1::11", 80, true));
                    p.endpoints.add(ep("fd00:10:0:1::12", 80, true));
                    p.endpoints.add(ep("fd00:10:0:2::11", 80, false));
                    return p;
                }).build());
    }

    @Test
    void featureScenarioDefaultSettings() {
        Golden.assertMatches("iptables/features.txt", new PlanRenderer(Features.DEFAULT).render(IptStates.state(featureScenario())).rulesetText());
    }

    @Test
    void featureScenarioMasqueradeAllPrimaryNodePortsBridgeDetectorNoLocalhostMarkBit15() {
        States.NodeSpec node = IptStates.node();
        node.masqueradeAll = true;
        node.masqueradeBit = 15;
        node.localhostNodePorts = false;
        node.v4NodePorts = new NodePortAddresses.Cidrs(List.of(States.cidr("192.168.0.2/32"), States.cidr("10.0.0.0/8")));
        node.v6NodePorts = new NodePortAddresses.Cidrs(List.of(States.cidr("fd00:192::2/128")));
        node.v4Detector = new LocalDetector.BridgeInterface("kbr0");
        node.v6Detector = new LocalDetector.InterfacePrefix("veth");
        NodeState state = node.state(featureScenario());
        Golden.assertMatches("iptables/features-variant.txt", new PlanRenderer(new Features(true, false, true)).render(state).rulesetText());
    }

    @Test
    void probabilitiesAreGoFormattedTenDecimals() {
        assertThat(Words.probability(2)).isEqualTo("0.5000000000");
        assertThat(Words.probability(3)).isEqualTo("0.3333333333");
        assertThat(Words.probability(6)).isEqualTo("0.1666666667");
        // 1/2048 = 0.00048828125 exactly: Go rounds the tie to even.
        assertThat(Words.probability(2048)).isEqualTo("0.0004882812");
        assertThat(Words.mark(14)).isEqualTo("0x00004000");
    }

    @Test
    void renderIsDeterministic() {
        NodeState s = IptStates.state(featureScenario());
        PlanRenderer r = new PlanRenderer(Features.DEFAULT);
        assertThat(r.render(s).rulesetHash()).isEqualTo(r.render(s).rulesetHash()).hasSize(64);
    }
}
