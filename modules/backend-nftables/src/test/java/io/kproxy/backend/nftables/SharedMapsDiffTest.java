package io.kproxy.backend.nftables;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.KernelException;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.NodeState;
import io.kproxy.state.ServicePortState;
import io.kproxy.state.StateDelta;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The shared endpoint maps across partial syncs: a Service added or deleted moves only the
 * dispatches of its cluster; crossing a power of two of dispatches moves a large part of the
 * protocol's dispatches (every one whose home changed, and their clusters) once; a map that
 * holds no slot any more is flushed and deleted later; every transaction applies to the in-memory interpreter and the settled result equals a fresh load.
 */
class SharedMapsDiffTest {

    private static final Instant T0 = TransactionGoldenTest.T0;

    private static ServicePortState svc(int i) {
        return TransactionGoldenTest.svc("svc-" + i, "172.30." + i / 200 + "." + (i % 200 + 1),
                "10.180." + i / 200 + "." + (i % 200 + 1));
    }

    /** Where the transactions go besides the in-memory interpreter: the real kernel in {@code NftKernelIT}. */
    interface Kernel {
        void apply(Transaction tx) throws KernelException;
    }

    private record Run(Kernel kernel, List<ServicePortState> ports, NftPlan plan, Instant now) {
    }

    private static Run sync(Run r, List<ServicePortState> ports, Set<ServicePortName> changed, List<Transaction> out)
            throws KernelException {
        NodeState state = NftStates.state(ports);
        NftPlan desired = PlanRenderer.renderIncremental(r.plan(), state, new StateDelta(changed, Set.of(), false, false));
        assertThat(desired.rulesetText()).as("incremental = full render").isEqualTo(PlanRenderer.render(state).rulesetText());
        Instant now = r.now().plusMillis(300);
        Transaction tx = NftDiff.diff(Optional.of(r.plan()), desired, SyncOptions.at(now));
        r.kernel().apply(tx);
        out.add(tx);
        return new Run(r.kernel(), ports, (NftPlan) tx.result(), now);
    }

    private static long count(Transaction tx, String prefix) {
        return tx.text().lines().filter(l -> l.startsWith(prefix)).count();
    }

    @Test
    void clustersMoveLocallyAndAPowerOfTwoRewritesTheProtocolOnce() throws KernelException {
        FakeNft fake = new FakeNft();
        NftPlan end = history(fake::apply);
        FakeNft fresh = new FakeNft();
        fresh.apply(NftDiff.diff(Optional.empty(), end, SyncOptions.at(T0)));
        assertThat(fake.dump()).isEqualTo(fresh.dump());
    }

    /**
     * Applies the history to {@code kernel} and to an interpreter of its own, checking each
     * transaction; ends with every deferred deletion done and a forced full sync, and returns the
     * last plan, which the kernel then holds exactly.
     */
    static NftPlan history(Kernel target) throws KernelException {
        FakeNft fake = new FakeNft();
        Kernel kernel = tx -> {
            fake.apply(tx);
            target.apply(tx);
        };
        List<ServicePortState> ports = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            ports.add(svc(i));
        }
        Transaction first = NftDiff.diff(Optional.empty(), PlanRenderer.render(NftStates.state(ports)), SyncOptions.at(T0));
        kernel.apply(first);
        assertThat(first.text()).contains("add map ip kube-proxy endpoints-tcp-0 ").doesNotContain("endpoints-tcp-1");
        Run run = new Run(kernel, ports, (NftPlan) first.result(), T0);
        List<Transaction> txs = new ArrayList<>();
        // 120 -> 128 dispatches: capacity 256, each addition touches its cluster only.
        for (int i = 120; i < 128; i++) {
            List<ServicePortState> next = new ArrayList<>(run.ports());
            next.add(svc(i));
            run = sync(run, next, Set.of(svc(i).name()), txs);
            Transaction tx = txs.getLast();
            assertThat(count(tx, "flush chain ")).as("chains rewritten for one added Service").isLessThan(10);
            assertThat(count(tx, "add element ip kube-proxy endpoints-")).isGreaterThanOrEqualTo(1);
        }
        // 129: capacity 512, two maps, many dispatches move (rule and elements), once.
        List<ServicePortState> next = new ArrayList<>(run.ports());
        next.add(svc(128));
        run = sync(run, next, Set.of(svc(128).name()), txs);
        Transaction grow = txs.getLast();
        assertThat(grow.text()).contains("add map ip kube-proxy endpoints-tcp-1 ");
        // Homes are the hash mod T: doubling T moves the half whose next bit is set, and the clusters change.
        assertThat(count(grow, "flush chain ")).isGreaterThan(129 / 3);
        // Back to 128: capacity 256 again, endpoints-tcp-1 holds nothing: flushed, deleted later.
        next = new ArrayList<>(run.ports());
        next.removeLast();
        run = sync(run, next, Set.of(svc(128).name()), txs);
        assertThat(txs.getLast().text()).contains("flush map ip kube-proxy endpoints-tcp-1").doesNotContain("delete map");
        // Remove a few more, each moving its cluster back only.
        for (int i = 0; i < 5; i++) {
            next = new ArrayList<>(run.ports());
            ServicePortState gone = next.remove(i * 7);
            run = sync(run, next, Set.of(gone.name()), txs);
            assertThat(count(txs.getLast(), "flush chain ")).isLessThan(10);
        }
        Transaction settle = NftDiff.diff(Optional.of(run.plan()), run.plan(), SyncOptions.at(run.now().plusSeconds(2)));
        kernel.apply(settle);
        txs.add(settle);
        // Deleted by the first sync at least a second after it was flushed.
        assertThat(txs.stream().filter(t -> t.text().contains("delete map ip kube-proxy endpoints-tcp-1"))).hasSize(1);
        FakeNft fresh = new FakeNft();
        fresh.apply(NftDiff.diff(Optional.empty(), run.plan(), SyncOptions.at(T0)));
        assertThat(fake.dump()).isEqualTo(fresh.dump());
        // The forced full sync writes the same maps again.
        Transaction full = NftDiff.diff(Optional.of((NftPlan) settle.result()), run.plan(), SyncOptions.fullAt(run.now().plusSeconds(3)));
        kernel.apply(full);
        assertThat(fake.dump()).isEqualTo(fresh.dump());
        return run.plan();
    }
}
