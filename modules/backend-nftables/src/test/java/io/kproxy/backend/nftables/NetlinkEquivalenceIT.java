package io.kproxy.backend.nftables;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.KernelException;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.testkit.IncrementalProperty;
import io.kproxy.backend.testkit.RandomStates;
import io.kproxy.backend.testkit.States;
import io.kproxy.netlink.NfTablesClient;
import io.kproxy.netlink.NfTablesException;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The netlink writer programs what libnftables would. For a seeded random sequence of node
 * states, namespace A receives every incremental transaction through {@link NetlinkKernelPort}
 * (all of them compiled to netlink, none falling back), namespace B the full ruleset of the
 * same plan through libnftables, and namespace C what the in-memory {@link FakeNft} holds after
 * the same incremental transactions; at checkpoints (after deferred deletions are due) the three
 * {@code nft list ruleset} listings are equal once normalised ({@link Listings}).
 */
class NetlinkEquivalenceIT {

    static NetNs a;
    static NetNs b;
    static NetNs c;
    static NfTablesClient client;
    static NftExecutor nftA;
    static NftExecutor nftB;
    static NftExecutor nftC;

    @BeforeAll
    static void setUp() throws NfTablesException {
        KernelTests.require("nft", "ip");
        a = NetNs.create("nleqa");
        b = NetNs.create("nleqb");
        c = NetNs.create("nleqc");
        client = NfTablesClient.open(Optional.of(a.name()));
        nftA = NftExecutors.open(Optional.of(a.name()));
        nftB = NftExecutors.open(Optional.of(b.name()));
        nftC = NftExecutors.open(Optional.of(c.name()));
    }

    @AfterAll
    static void tearDown() {
        for (AutoCloseable r : new AutoCloseable[] {client, nftA, nftB, nftC, a, b, c}) {
            if (r != null) {
                try {
                    r.close();
                } catch (Exception e) {
                    // best effort: the namespaces go anyway
                }
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {20261122L, 7L, 424242L})
    void incrementalNetlinkEqualsFullLibnftablesAndTheFake(long seed) throws KernelException {
        try {
            run(seed);
        } catch (AssertionError | KernelException | RuntimeException e) {
            throw new AssertionError("equivalence failed with seed " + seed, e);
        }
    }

    /** The golden rulesets cover what random states do not: detectors by interface, masqueradeAll, NodePort CIDRs. */
    @ParameterizedTest
    @ValueSource(strings = {"overall.nft", "features.nft", "features-variant.nft"})
    void goldenRulesetsLoadTheSameEitherWay(String file) throws KernelException {
        String text = NftBackend.cleanupText() + Golden.read("nftables/" + file);
        NetlinkKernelPort port = new NetlinkKernelPort(client, new NftKernelPort(nftA));
        port.apply(text);
        assertThat(port.commits()).containsExactly(1L, 0L);
        new NftKernelPort(nftB).apply(text);
        assertThat(Listings.normalise(nftA.list("list ruleset").output())).isEqualTo(Listings.normalise(nftB.list("list ruleset").output()));
    }

    /** A full transaction large enough to be compiled on two threads (BatchCompiler.SPLIT_FROM_CHARS) programs what libnftables does. */
    @org.junit.jupiter.api.Test
    void aTransactionCompiledOnTwoThreadsLoadsTheSameEitherWay() throws KernelException {
        NodeState state = RandomStates.state(new RandomStates(99).initial(1_600), NftStates.node());
        String text = NftBackend.cleanupText() + NftDiff.diff(Optional.empty(), PlanRenderer.render(state), SyncOptions.at(Instant.EPOCH)).text();
        assertThat(text.length()).isGreaterThanOrEqualTo(io.kproxy.backend.nftables.wire.BatchCompiler.SPLIT_FROM_CHARS);
        NetlinkKernelPort port = new NetlinkKernelPort(client, new NftKernelPort(nftA));
        port.apply(text);
        assertThat(port.commits()).containsExactly(1L, 0L);
        new NftKernelPort(nftB).apply(text);
        assertThat(Listings.normalise(nftA.list("list ruleset").output())).isEqualTo(Listings.normalise(nftB.list("list ruleset").output()));
    }

    private void run(long seed) throws KernelException {
        NetlinkKernelPort port = new NetlinkKernelPort(client, new NftKernelPort(nftA));
        new NftKernelPort(nftA).apply(NftBackend.cleanupText());
        RandomStates gen = new RandomStates(seed);
        Random random = new Random(seed);
        TreeMap<String, States.PortSpec> specs = gen.initial(25);
        NodeState state = RandomStates.state(specs, NftStates.node());
        NftPlan plan = PlanRenderer.render(state);
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        FakeNft fake = new FakeNft();
        Transaction tx = NftDiff.diff(Optional.empty(), plan, SyncOptions.at(now));
        port.apply(tx.text());
        fake.apply(tx);
        NftPlan applied = (NftPlan) tx.result();
        for (int step = 1; step <= 24; step++) {
            gen.mutate(specs, 300 + step * 3);
            NodeState next = RandomStates.state(specs, NftStates.node());
            plan = PlanRenderer.renderIncremental(plan, next, IncrementalProperty.delta(state, next, random));
            now = now.plusMillis(random.nextInt(1500));
            tx = NftDiff.diff(Optional.of(applied), plan, new SyncOptions(now, random.nextInt(10) == 0));
            port.check(tx.text());
            port.apply(tx.text());
            fake.apply(tx);
            applied = (NftPlan) tx.result();
            state = next;
            if (step % 8 == 0) {
                now = now.plusSeconds(2);
                tx = NftDiff.diff(Optional.of(applied), plan, SyncOptions.at(now));
                port.apply(tx.text());
                fake.apply(tx);
                applied = (NftPlan) tx.result();
                compare(plan, fake, step);
            }
        }
        assertThat(port.commits()[1]).as("transactions that fell back to libnftables").isZero();
        assertThat(port.commits()[0]).isPositive();
    }

    private static void compare(NftPlan plan, FakeNft fake, int step) throws KernelException {
        new NftKernelPort(nftB).apply(NftBackend.cleanupText() + NftDiff.diff(Optional.empty(), plan, SyncOptions.at(Instant.EPOCH)).text());
        new NftKernelPort(nftC).apply(NftBackend.cleanupText() + fake.toScript());
        String viaNetlink = Listings.normalise(nftA.list("list ruleset").output());
        String viaLibnftables = Listings.normalise(nftB.list("list ruleset").output());
        String viaFake = Listings.normalise(nftC.list("list ruleset").output());
        assertThat(viaNetlink).as("step %d: incremental over netlink vs full through libnftables", step).isEqualTo(viaLibnftables);
        assertThat(viaNetlink).as("step %d: kernel vs the fake's view", step).isEqualTo(viaFake);
        assertThat(viaNetlink).contains("hairpin-connections").containsPattern("dnat ip to numgen random mod 16777216 (offset \\d+ )?map @endpoints-");
    }
}
