package io.kproxy.backend.nftables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.backend.Backend;
import io.kproxy.backend.KernelException;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.backend.testkit.BackendNode;
import io.kproxy.backend.testkit.PacketWorld;
import io.kproxy.model.IpFamily;
import io.kproxy.netlink.NfTableObjects;
import io.kproxy.netlink.NfTablesClient;
import io.kproxy.netlink.NftExecutor;
import io.kproxy.netlink.NftExecutors;
import io.kproxy.state.NodeState;
import io.kproxy.state.ServicePortState;
import io.kproxy.testkit.NftListing;
import io.kproxy.testkit.netns.Addr;
import io.kproxy.testkit.netns.Outcome;
import io.kproxy.testkit.netns.Probe;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A restarted proxy's first sync ({@link Backend#diffFromKernel}) takes over the tables the
 * previous process left, in the kernel of a test node namespace: under a stream of new
 * connections no connection is refused or lost (deleting and recreating the table loses about one
 * in 2,500 during 100 restarts on this kernel: the NAT base chains are re-registered), what the
 * proxy no longer wants goes, and a takeover the kernel refuses falls back to recreating.
 */
class NftTakeOverIT {

    static BackendNode node;
    static NftExecutor nft;

    @BeforeAll
    static void setUp() {
        node = BackendNode.open("nftables", "nft", "ip");
        nft = NftExecutors.open(Optional.of(node.topo().ns("node").name()));
    }

    @AfterAll
    static void tearDown() {
        if (nft != null) {
            nft.close();
        }
        if (node != null) {
            node.close();
        }
    }

    @BeforeEach
    void clean() throws KernelException {
        node.backend().cleanup();
    }

    private static Backend restarted() {
        return BackendProvider.forMode("nftables").orElseThrow().create(Optional.of(node.topo().ns("node").name()));
    }

    private static Plan programFromScratch(Backend b, NodeState state) throws KernelException {
        Transaction tx = b.diff(Optional.empty(), b.render(state), SyncOptions.at(Instant.now()));
        b.apply(tx);
        return tx.result();
    }

    private static String table() {
        return nft.list("list table ip kube-proxy").output() + nft.list("list table ip6 kube-proxy").output();
    }

    @Test
    void restartsUnderTrafficLoseNoConnectionAndKeepTheRules() throws Exception {
        NodeState state = NftStates.state(PacketWorld.services());
        NodeState fewer = NftStates.state(PacketWorld.services().stream()
                .filter(p -> !p.name().service().name().equals("affinity")).toList());
        programFromScratch(node.backend(), state);
        String before = table();
        Addr a = new Addr(IpFamily.IPV4);
        AtomicBoolean run = new AtomicBoolean(true);
        AtomicInteger ok = new AtomicInteger();
        List<Outcome> failures = new CopyOnWriteArrayList<>();
        Thread load = Thread.ofPlatform().daemon().start(() -> {
            Probe p = node.topo().probe("pod3", 1_000);
            while (run.get()) {
                Outcome o = p.tcp(null, a.cip(10), 80);
                if (o.kind() == Outcome.Kind.REPLY) {
                    ok.incrementAndGet();
                } else {
                    failures.add(o);
                }
            }
        });
        try {
            for (int i = 0; i < 60; i++) {
                try (Backend b = restarted()) {
                    // Every other restart finds a Service gone, so that each one takes over
                    // (the same state again would write nothing: see the next test).
                    NodeState s = i % 2 == 0 ? fewer : state;
                    Transaction tx = b.diffFromKernel(b.render(s), SyncOptions.at(Instant.now()));
                    assertThat(tx.text()).doesNotContain("delete table").contains("flush table ip kube-proxy");
                    b.apply(tx);
                }
                Thread.sleep(20);
            }
        } finally {
            run.set(false);
            load.join(5_000);
        }
        assertThat(ok.get()).isGreaterThan(100);
        assertThat(failures).as("connections that failed across 60 restarts (%d succeeded)", ok.get()).isEmpty();
        // The same objects; the order nft lists them in follows the takeovers' re-declarations.
        assertThat(NftListing.canonical(table())).isEqualTo(NftListing.canonical(before));
    }

    /**
     * A restart whose state is the one the previous process programmed last finds its generation
     * marker and exactly its objects, and writes nothing but its declarations again
     * (docs/backends/nftables.md, "Restart without rewriting");
     * a marker of another ruleset, or an object someone removed, makes it take over.
     */
    @Test
    void aRestartFindingItsOwnGenerationOnlyDeclaresAgainAndOtherwiseTakesOver() throws Exception {
        NodeState state = NftStates.state(PacketWorld.services());
        Plan programmed = programFromScratch(node.backend(), state);
        String before = table();
        assertThat(before).contains("set " + NftPlan.MARKER_PREFIX + programmed.rulesetHash());
        try (Backend b = restarted()) {
            Transaction tx = b.diffFromKernel(b.render(state), SyncOptions.at(Instant.now()));
            assertThat(tx.text().lines()).as("declarations only: no element, chain or rule written")
                    .allMatch(l -> l.startsWith("add table ") || l.startsWith("add set ") || l.startsWith("add map "));
            assertThat(tx.isFull()).as("counts as the full sync").isTrue();
            b.apply(tx);
            assertThat(table()).as("declaring what exists changes nothing").isEqualTo(before);
            assertThat(tx.result().rulesetHash()).isEqualTo(programmed.rulesetHash());
            // The kept plan is the last applied one: a change from it is a partial transaction.
            NodeState fewer = NftStates.state(PacketWorld.services().stream()
                    .filter(p -> !p.name().service().name().equals("web")).toList());
            Transaction next = b.diff(Optional.of(tx.result()), b.render(fewer), SyncOptions.at(Instant.now()));
            assertThat(next.isFull()).isFalse();
            b.apply(next);
            try (Backend again = restarted()) {
                Transaction other = again.diffFromKernel(again.render(state), SyncOptions.at(Instant.now()));
                assertThat(other.text()).as("another generation's marker").contains("flush table ip kube-proxy");
                again.apply(other);
            }
        }
        // Someone adds a chain to the table: the names no longer match.
        assertThat(nft.run("add chain ip kube-proxy intruder\n", false).ok()).isTrue();
        try (Backend b = restarted()) {
            Transaction repair = b.diffFromKernel(b.render(state), SyncOptions.at(Instant.now()));
            assertThat(repair.isEmpty()).isFalse();
            b.apply(repair);
            Transaction twice = b.diff(Optional.of(repair.result()), b.render(state), SyncOptions.at(Instant.now().plusSeconds(2)));
            b.apply(twice);   // the stale chains and maps of the takeovers, and the intruder
        }
        assertThat(table()).doesNotContain("intruder");
        try (Backend b = restarted()) {
            assertThat(b.diffFromKernel(b.render(state), SyncOptions.at(Instant.now())).text()).doesNotContain("add element")
                    .doesNotContain("flush").doesNotContain("add rule");
        }
        String after = NftListing.canonical(table());
        node.backend().cleanup();
        programFromScratch(node.backend(), state);
        assertThat(after).isEqualTo(NftListing.canonical(table())).isEqualTo(NftListing.canonical(before));
    }

    @Test
    void whatTheRestartedProxyNoLongerWantsGoesAndTheTableEndsAsIfRecreated() throws Exception {
        List<ServicePortState> all = PacketWorld.services();
        programFromScratch(node.backend(), NftStates.state(all));
        // Services deleted while the proxy was down; one of them had session affinity.
        NodeState fewer = NftStates.state(all.stream()
                .filter(p -> !p.name().service().name().equals("web") && !p.name().service().name().equals("affinity")).toList());
        try (Backend b = restarted()) {
            Instant now = Instant.now();
            Transaction tx = b.diffFromKernel(b.render(fewer), SyncOptions.at(now));
            b.apply(tx);
            assertThat(tx.result().nextDeferredWork()).as("the unwanted chains and maps wait for deletion").isPresent();
            Transaction later = b.diff(Optional.of(tx.result()), b.render(fewer), SyncOptions.at(now.plusSeconds(2)));
            assertThat(later.text()).contains("delete chain ip kube-proxy service-").contains("delete map ip kube-proxy service-");
            b.apply(later);
            assertThat(later.result().nextDeferredWork()).isEmpty();
        }
        String takenOver = table();
        assertThat(takenOver).doesNotContain("ns1/web/").doesNotContain("ns1/affinity/");
        node.backend().cleanup();
        programFromScratch(node.backend(), fewer);
        assertThat(takenOver).isEqualTo(table());
    }

    @Test
    void theNetlinkReaderSeesWhatNftListsWithoutReadingElements() throws Exception {
        programFromScratch(node.backend(), NftStates.state(PacketWorld.services()));
        try (NfTablesClient client = NfTablesClient.open(Optional.of(node.topo().ns("node").name()))) {
            for (NftFamily f : List.of(NftFamily.V4, NftFamily.V6)) {
                NfTableObjects byNetlink = NftablesProvider.reader(client).read(f);
                NfTableObjects byListing = NftablesProvider.reader(nft).read(f);
                assertThat(byNetlink).isEqualTo(byListing);
                assertThat(byNetlink.chains()).containsEntry("nat-prerouting", true).containsEntry("services", false);
                assertThat(byNetlink.sets()).contains("cluster-ips").doesNotContain("service-ips");
                assertThat(byNetlink.maps()).contains("service-ips");
            }
        }
        node.backend().cleanup();
        try (NfTablesClient client = NfTablesClient.open(Optional.of(node.topo().ns("node").name()))) {
            assertThat(NftablesProvider.reader(client).read(NftFamily.V4).exists()).isFalse();
        }
    }

    @Test
    void aTakeOverTheKernelRefusesFallsBackToRecreatingTheTables() throws Exception {
        // A leftover the takeover cannot reuse: a plain chain where a base chain is declared.
        assertThat(nft.run("add table ip kube-proxy\nadd chain ip kube-proxy nat-prerouting\n", false).ok()).isTrue();
        NodeState state = NftStates.state(PacketWorld.services());
        try (Backend b = restarted()) {
            Plan desired = b.render(state);
            Transaction takeOver = b.diffFromKernel(desired, SyncOptions.at(Instant.now()));
            assertThat(takeOver.text()).doesNotContain("delete table ip kube-proxy");
            assertThatThrownBy(() -> b.apply(takeOver)).isInstanceOf(KernelException.class)
                    .satisfies(e -> assertThat(((KernelException) e).retryable()).isFalse());
            Transaction retry = b.diffFromKernel(desired, SyncOptions.at(Instant.now()));
            assertThat(retry.text()).contains("delete table ip kube-proxy");
            b.apply(retry);
        }
        String recovered = table();
        node.backend().cleanup();
        programFromScratch(node.backend(), state);
        assertThat(recovered).isEqualTo(table());
    }
}
