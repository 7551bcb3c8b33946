package io.kproxy.backend.nftables;

import static io.kproxy.backend.nftables.States.ep;
import static io.kproxy.backend.nftables.States.port;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.state.LocalDetector;
import io.kproxy.state.NodePortAddresses;
import io.kproxy.state.NodeState;
import io.kproxy.state.ServicePortState;
import io.kproxy.testkit.Golden;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Golden rulesets of the scenarios the packet tests also run, and line-for-line upstream compatibility. */
class RenderGoldenTest {

    static String upstreamFixture() throws IOException {
        try (InputStream in = RenderGoldenTest.class.getResourceAsStream("/upstream/overall-030880a5.nft")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void everyLineOfUpstreamsOverallFixtureIsRenderedVerbatim() throws IOException {
        String ours = PlanRenderer.render(States.state(UpstreamScenarios.overall())).rulesetText();
        Set<String> ourLines = Arrays.stream(ours.split("\n")).collect(Collectors.toSet());
        List<String> missing = upstreamFixture().lines().filter(l -> !l.isBlank() && !l.startsWith("#"))
                .filter(l -> !ourLines.contains(l)).toList();
        assertThat(missing).as("upstream lines we do not render verbatim").isEmpty();
    }

    @Test
    void upstreamOverallScenario() {
        Golden.assertMatches("nftables/overall.nft", PlanRenderer.render(States.state(UpstreamScenarios.overall())).rulesetText());
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
                    p.protocol = io.kproxy.model.Protocol.UDP;
                    p.nodePort = 30053;
                    p.endpoints.add(ep("10.0.1.11", 5353, true));
                    return p;
                }).build(),
                port("ns1", "sctp", "", "172.30.0.60", 9999).with(p -> {
                    p.protocol = io.kproxy.model.Protocol.SCTP;
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
                    p.lbIPs.add("198.51.100.71");
                    p.sourceRanges.add("203.0.113.0/25");
                    p.sourceRanges.add("192.168.0.0/24");
                    p.endpoints.add(ep("10.0.1.11", 80, true));
                    p.endpoints.add(ep("10.0.2.11", 80, false));
                    return p;
                }).build());
    }

    @Test
    void featureScenarioDefaultSettings() {
        Golden.assertMatches("nftables/features.nft", PlanRenderer.render(States.state(featureScenario())).rulesetText());
    }

    @Test
    void featureScenarioMasqueradeAllMatchAllNodePortsBridgeDetector() {
        States.NodeSpec node = new States.NodeSpec();
        node.masqueradeAll = true;
        node.serviceCIDRs = List.of();
        node.v4NodePorts = new NodePortAddresses.MatchAll();
        node.v6NodePorts = new NodePortAddresses.Cidrs(List.of(States.cidr("fd00:192::/64")));
        node.v4Detector = new LocalDetector.BridgeInterface("kbr0");
        node.v6Detector = new LocalDetector.None();
        NodeState state = node.state(featureScenario());
        Golden.assertMatches("nftables/features-variant.nft", PlanRenderer.render(state).rulesetText());
    }

    @Test
    void renderIsDeterministic() {
        NodeState s = States.state(featureScenario());
        assertThat(PlanRenderer.render(s).rulesetHash()).isEqualTo(PlanRenderer.render(s).rulesetHash()).hasSize(64);
    }
}
