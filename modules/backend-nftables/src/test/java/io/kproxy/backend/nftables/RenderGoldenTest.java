package io.kproxy.backend.nftables;

import static io.kproxy.backend.testkit.States.ep;
import static io.kproxy.backend.testkit.States.port;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.testkit.States;
import io.kproxy.backend.testkit.UpstreamScenarios;
import io.kproxy.model.IpFamily;
import io.kproxy.state.LocalDetector;
import io.kproxy.state.NodePortAddresses;
import io.kproxy.state.NodeState;
import io.kproxy.state.ServicePortState;
import io.kproxy.testkit.Golden;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Golden rulesets of the scenarios the packet tests also run, and line-for-line upstream compatibility. */
class RenderGoldenTest {

    static String upstreamFixture() throws IOException {
        try (InputStream in = RenderGoldenTest.class.getResourceAsStream("/upstream/overall-030880a5.nft")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    // An endpoint chain line of upstream's fixture: chain name (with endpoint ip/port), rule.
    private static final Pattern ENDPOINT_LINE = Pattern.compile(
            "^add (?:chain|rule) ip kube-proxy (endpoint-\\w+-(\\S+)__([0-9.]+)/(\\d+))(?: (.*))?$");

    /**
     * Every line of upstream's fixture is rendered verbatim, except what the documented
     * deviations (docs/backends/nftables.md) replace: a service without session affinity has no
     * endpoint chains, its endpoints are elements of its dispatch map instead; no endpoint chain
     * has the hairpin rule, every endpoint is an element of {@code hairpin-connections} instead.
     */
    @Test
    void everyLineOfUpstreamsOverallFixtureIsRenderedVerbatimOrReplacedAsDocumented() throws IOException {
        String ours = PlanRenderer.render(NftStates.state(UpstreamScenarios.overall())).rulesetText();
        Set<String> ourLines = Arrays.stream(ours.split("\n")).collect(Collectors.toSet());
        List<String> missing = new ArrayList<>();
        int replaced = 0;
        for (String l : upstreamFixture().lines().filter(l -> !l.isBlank() && !l.startsWith("#")).toList()) {
            if (ourLines.contains(l)) {
                continue;
            }
            Matcher m = ENDPOINT_LINE.matcher(l);
            if (!m.matches()) {
                missing.add(l);
                continue;
            }
            String ip = m.group(3);
            String port = m.group(4);
            boolean affinity = ours.contains("add set ip kube-proxy affinity-" + m.group(1).substring("endpoint-".length()) + " ");
            boolean hairpinRule = (ip + " jump mark-for-masquerade").equals(m.group(5) == null ? "" : m.group(5).replace("ip saddr ", ""));
            String hairpin = "add element ip kube-proxy hairpin-connections { " + ip + " . " + ip + " . tcp . " + port + " }";
            if (hairpinRule && ourLines.contains(hairpin)) {
                replaced++;
            } else if (!affinity && ours.contains(" : " + ip + " . " + port)) {
                replaced++;
            } else {
                missing.add(l);
            }
        }
        assertThat(missing).as("upstream lines we neither render verbatim nor replace as documented").isEmpty();
        assertThat(replaced).as("lines replaced by the dispatch maps and the hairpin set").isPositive();
        assertThat(ours).doesNotContain("jump mark-for-masquerade\nadd rule ip kube-proxy endpoint-");
    }

    @Test
    void upstreamOverallScenario() {
        Golden.assertMatches("nftables/overall.nft", PlanRenderer.render(NftStates.state(UpstreamScenarios.overall())).rulesetText());
    }

    /** {@code render --family}: each family's table alone, exactly its part of the whole text (issue 19, item 8). */
    @Test
    void theLoadableTextOfAFamilyIsThatFamilysTable() {
        NftPlan plan = PlanRenderer.render(NftStates.state(UpstreamScenarios.overall()));
        String v4 = plan.loadableText(IpFamily.IPV4);
        String v6 = plan.loadableText(IpFamily.IPV6);
        assertThat(v4).startsWith("add table ip kube-proxy").doesNotContain(" ip6 ");
        assertThat(v6).startsWith("add table ip6 kube-proxy").doesNotContain("add table ip kube-proxy");
        assertThat(v4 + "\n" + v6).isEqualTo(plan.rulesetText());
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
        Golden.assertMatches("nftables/features.nft", PlanRenderer.render(NftStates.state(featureScenario())).rulesetText());
    }

    @Test
    void featureScenarioMasqueradeAllMatchAllNodePortsBridgeDetector() {
        States.NodeSpec node = NftStates.node();
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
        NodeState s = NftStates.state(featureScenario());
        assertThat(PlanRenderer.render(s).rulesetHash()).isEqualTo(PlanRenderer.render(s).rulesetHash()).hasSize(64);
    }
}
