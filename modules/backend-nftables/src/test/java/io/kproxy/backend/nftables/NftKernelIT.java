package io.kproxy.backend.nftables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.backend.Backend;
import io.kproxy.backend.KernelException;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.backend.testkit.IncrementalProperty;
import io.kproxy.backend.testkit.RandomStates;
import io.kproxy.backend.testkit.States;
import io.kproxy.backend.testkit.UpstreamScenarios;
import io.kproxy.netlink.NftExecutor;
import io.kproxy.netlink.NftExecutors;
import io.kproxy.state.NodeState;
import io.kproxy.testkit.Golden;
import io.kproxy.testkit.KernelTests;
import io.kproxy.testkit.NetNs;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real kernel accepts what we write: every golden ruleset passes {@code nft --check}, a
 * random sequence of incremental transactions applies through libnftables inside a test
 * namespace, a refusal is a typed error holding the failing line, and cleanup removes our
 * tables and nothing else.
 */
class NftKernelIT {

    static NetNs ns;
    static Backend backend;
    static NftExecutor nft;

    @BeforeAll
    static void setUp() {
        KernelTests.require("nft", "ip");
        ns = NetNs.create("nftkern");
        backend = BackendProvider.forMode("nftables").orElseThrow().create(Optional.of(ns.name()));
        nft = NftExecutors.open(Optional.of(ns.name()));
    }

    @AfterAll
    static void tearDown() {
        if (backend != null) {
            backend.close();
        }
        if (nft != null) {
            nft.close();
        }
        if (ns != null) {
            ns.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"overall.nft", "features.nft", "features-variant.nft"})
    void goldenRulesetsPassNftCheck(String file) {
        String text = Golden.read("nftables/" + file);
        var r = nft.run(text, true);
        assertThat(r.ok()).as("nft --check %s: %s", file, r.error()).isTrue();
        // The dry run changed nothing.
        assertThat(nft.list("list tables").output()).doesNotContain("kube-proxy");
    }

    @Test
    void incrementalTransactionsApplyInTheKernel() throws KernelException {
        backend.cleanup();
        RandomStates gen = new RandomStates(4242);
        TreeMap<String, States.PortSpec> specs = gen.initial(30);
        NodeState state = RandomStates.state(specs, NftStates.node());
        Plan plan = backend.render(state);
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        Transaction tx = backend.diff(Optional.empty(), plan, SyncOptions.at(now));
        backend.apply(tx);
        Plan applied = tx.result();
        Random random = new Random(4242);
        for (int step = 0; step < 30; step++) {
            gen.mutate(specs, 200 + step * 3);
            NodeState next = RandomStates.state(specs, NftStates.node());
            plan = backend.renderIncremental(plan, next, IncrementalProperty.delta(state, next, random));
            now = now.plusMillis(random.nextInt(1500));
            tx = backend.diff(Optional.of(applied), plan, new SyncOptions(now, random.nextInt(10) == 0));
            backend.check(tx);
            backend.apply(tx);
            applied = tx.result();
            state = next;
        }
        tx = backend.diff(Optional.of(applied), plan, SyncOptions.at(now.plusSeconds(2)));
        backend.apply(tx);
        // The kernel holds exactly the chains of the plan: no stale chain survived.
        String listing = nft.list("list chains").output();
        long kernelServiceChains = listing.lines().filter(l -> l.strip().startsWith("chain ") && l.contains("/")).count();
        long planChains = ((NftPlan) plan).v4().chains().size() + ((NftPlan) plan).v6().chains().size();
        assertThat(kernelServiceChains).isEqualTo(planChains);
    }

    /**
     * The shared endpoint maps across cluster moves, a power of two of dispatches crossed both
     * ways, a map emptied and deleted, and a forced full sync, over netlink: every transaction
     * applies, and the kernel then lists what a fresh load of the last plan lists.
     */
    @Test
    void sharedEndpointMapsAcrossMovesAndBoundariesInTheKernel() throws KernelException {
        backend.cleanup();
        NftPlan end = SharedMapsDiffTest.history(tx -> {
            backend.check(tx);
            backend.apply(tx);
        });
        String incremental = Listings.normalise(nft.list("list ruleset").output());
        assertThat(incremental).contains("map endpoints-tcp-0").doesNotContain("endpoints-tcp-1");
        backend.apply(backend.diff(Optional.empty(), end, SyncOptions.at(Instant.now())));
        assertThat(Listings.normalise(nft.list("list ruleset").output())).isEqualTo(incremental);
        backend.cleanup();
    }

    /** ServiceCIDRs changing the service ranges: the partial transaction that rewrites cluster-ips-check applies. */
    @Test
    void aServiceRangeChangeAppliesPartiallyInTheKernel() throws KernelException {
        backend.cleanup();
        TreeMap<String, States.PortSpec> specs = new RandomStates(77).initial(10);
        States.NodeSpec node = NftStates.node();
        Plan applied = backend.render(RandomStates.state(specs, node));
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        backend.apply(backend.diff(Optional.empty(), applied, SyncOptions.at(now)));
        for (java.util.List<String> ranges : java.util.List.of(java.util.List.of("10.96.0.0/12", "172.30.0.0/16", "fd00:30::/108"),
                java.util.List.<String>of(), java.util.List.of("172.30.0.0/16", "fd00:30::/108"))) {
            node.serviceCIDRs = ranges;
            Plan desired = backend.render(RandomStates.state(specs, node));
            Transaction tx = backend.diff(Optional.of(applied), desired, SyncOptions.at(now = now.plusSeconds(1)));
            assertThat(tx.isFull()).as("ranges %s", ranges).isFalse();
            backend.check(tx);
            backend.apply(tx);
            applied = tx.result();
            String chain = nft.list("list chain ip kube-proxy cluster-ips-check").output();
            if (ranges.isEmpty()) {
                assertThat(chain).doesNotContain(" drop");
            } else {
                assertThat(chain).contains("drop").contains("172.30.0.0/16");
                assertThat(chain.contains("10.96.0.0/12")).isEqualTo(ranges.contains("10.96.0.0/12"));
            }
        }
        backend.cleanup(); // the dry-run test expects no table of ours
    }

    @Test
    void refusalIsTypedWithTheFailingLine() {
        String bad = "add table ip kube-proxy\nadd rule ip kube-proxy no-such-chain accept\n";
        assertThatThrownBy(() -> new NftKernelPort(nft).apply(bad)).isInstanceOfSatisfying(KernelException.class, e -> {
            assertThat(e.retryable()).isFalse();
            assertThat(e.failingLineNumber()).as(e.toolMessage()).contains(2);
            assertThat(e.failingLine()).contains("add rule ip kube-proxy no-such-chain accept");
            assertThat(e.toolMessage()).contains("Error");
        });
    }

    @Test
    void cleanupRemovesOurTablesAndNothingElse() throws KernelException {
        backend.apply(backend.diff(Optional.empty(), backend.render(NftStates.state(UpstreamScenarios.overall())), SyncOptions.at(Instant.now())));
        assertThat(nft.run("add table inet someone-else\nadd chain inet someone-else c\n", false).ok()).isTrue();
        backend.cleanup();
        backend.cleanup();
        String tables = nft.list("list tables").output();
        assertThat(tables).contains("table inet someone-else").doesNotContain("kube-proxy");
        assertThat(nft.run("delete table inet someone-else\n", false).ok()).isTrue();
    }
}
