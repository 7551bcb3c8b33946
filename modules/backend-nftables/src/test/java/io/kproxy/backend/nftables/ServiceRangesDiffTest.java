package io.kproxy.backend.nftables;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.testkit.IncrementalProperty;
import io.kproxy.backend.testkit.RandomStates;
import io.kproxy.backend.testkit.States;
import io.kproxy.events.SyncKind;
import io.kproxy.state.NodeState;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A change of the service ranges (the ServiceCIDRs) reaches the kernel in the partial
 * transaction: {@code cluster-ips-check} is flushed and rewritten, nothing else of the table is
 * touched, and the kernel ends equal to the full ruleset loaded fresh.
 */
class ServiceRangesDiffTest {

    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
    private static final List<List<String>> RANGES = List.of(
            List.of("172.30.0.0/16", "fd00:30::/108"),
            List.of("172.30.0.0/16", "10.96.0.0/12", "fd00:30::/108"),
            List.of("10.96.0.0/12"),
            List.of(),
            List.of("fd00:30::/108", "fd00:31::/108"));

    private static NodeState state(TreeMap<String, States.PortSpec> specs, List<String> ranges) {
        States.NodeSpec node = NftStates.node();
        node.serviceCIDRs = ranges;
        return RandomStates.state(specs, node);
    }

    @Test
    void aRangeChangeRewritesOnlyTheClusterIpsCheckChainOfItsFamily() {
        TreeMap<String, States.PortSpec> specs = new RandomStates(7).initial(15);
        NftPlan before = PlanRenderer.render(state(specs, RANGES.get(0)));
        FakeNft kernel = new FakeNft();
        Transaction first = NftDiff.diff(Optional.empty(), before, SyncOptions.at(T));
        kernel.apply(first);

        NftPlan after = PlanRenderer.render(state(specs, RANGES.get(1)));
        Transaction tx = NftDiff.diff(Optional.of((NftPlan) first.result()), after, SyncOptions.at(T.plusSeconds(1)));
        assertThat(tx.kind()).isEqualTo(SyncKind.PARTIAL);
        assertThat(tx.text()).as("the generation marker moves").contains("add set ip kube-proxy " + after.marker())
                .contains("add set ip6 kube-proxy " + after.marker());
        assertThat(tx.text().lines().filter(l -> !l.contains(NftPlan.MARKER_PREFIX)).toList()).containsExactly(
                "flush chain ip kube-proxy cluster-ips-check",
                "add rule ip kube-proxy cluster-ips-check ip daddr @cluster-ips reject comment \"Reject traffic to invalid ports of ClusterIPs\"",
                "add rule ip kube-proxy cluster-ips-check ip daddr { 172.30.0.0/16, 10.96.0.0/12 } drop comment \"Drop traffic to unallocated ClusterIPs\"");
        kernel.apply(tx);
        assertThat(kernel.dump()).isEqualTo(fresh(after).dump());

        // No ranges: only the reject rule stays.
        NftPlan none = PlanRenderer.render(state(specs, List.of()));
        Transaction cleared = NftDiff.diff(Optional.of((NftPlan) tx.result()), none, SyncOptions.at(T.plusSeconds(2)));
        assertThat(cleared.kind()).isEqualTo(SyncKind.PARTIAL);
        assertThat(cleared.text()).doesNotContain("drop comment").contains("flush chain ip kube-proxy cluster-ips-check")
                .contains("flush chain ip6 kube-proxy cluster-ips-check").doesNotContain("flush table");
        kernel.apply(cleared);
        assertThat(kernel.dump()).isEqualTo(fresh(none).dump());
    }

    @Test
    void otherBaseChangesStillRewriteTheTable() {
        TreeMap<String, States.PortSpec> specs = new RandomStates(8).initial(5);
        NftPlan before = PlanRenderer.render(state(specs, RANGES.get(0)));
        States.NodeSpec node = NftStates.node();
        node.v4NodePorts = new io.kproxy.state.NodePortAddresses.MatchAll(); // the nodeport-ips set goes
        NftPlan after = PlanRenderer.render(RandomStates.state(specs, node));
        Transaction tx = NftDiff.diff(Optional.of(before), after, SyncOptions.at(T));
        assertThat(tx.kind()).isEqualTo(SyncKind.FULL);
        assertThat(tx.text()).contains("flush table ip kube-proxy");
    }

    /** Seeded walk: services and ranges change together or apart; the kernel always equals a fresh load. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("io.kproxy.backend.testkit.IncrementalProperty#seeds")
    void rangesAndServicesChangingTogetherConverge(long seed) {
        IncrementalProperty.withSeed(seed, this::walk);
    }

    private void walk(long seed) {
        RandomStates gen = new RandomStates(seed);
        Random random = new Random(seed ^ 0x2545F4914F6CDD1DL);
        TreeMap<String, States.PortSpec> specs = gen.initial(12);
        List<String> ranges = RANGES.get(random.nextInt(RANGES.size()));
        NftPlan plan = PlanRenderer.render(state(specs, ranges));
        FakeNft kernel = new FakeNft();
        Transaction first = NftDiff.diff(Optional.empty(), plan, SyncOptions.at(T));
        kernel.apply(first);
        NftPlan applied = (NftPlan) first.result();
        Instant now = T;
        for (int step = 0; step < 20; step++) {
            boolean services = random.nextBoolean();
            boolean rangesChange = !services || random.nextBoolean();
            if (services) {
                gen.mutate(specs, 100 + step * 3);
            }
            if (rangesChange) {
                ranges = RANGES.get(random.nextInt(RANGES.size()));
            }
            plan = PlanRenderer.render(state(specs, ranges));
            now = now.plusMillis(random.nextInt(1500));
            Transaction tx = NftDiff.diff(Optional.of(applied), plan, SyncOptions.at(now));
            assertThat(tx.kind()).as("step %d", step).isEqualTo(SyncKind.PARTIAL);
            kernel.apply(tx);
            applied = (NftPlan) tx.result();
        }
        Transaction settle = NftDiff.diff(Optional.of(applied), plan, SyncOptions.at(now.plusSeconds(2)));
        kernel.apply(settle);
        assertThat(kernel.dump()).isEqualTo(fresh(plan).dump());
    }

    private static FakeNft fresh(NftPlan plan) {
        FakeNft k = new FakeNft();
        k.apply(NftDiff.diff(Optional.empty(), plan, SyncOptions.at(T)));
        return k;
    }
}
