package io.kproxy.backend.nftables;

import io.kproxy.backend.Backend;
import io.kproxy.backend.ConntrackFilter;
import io.kproxy.backend.KernelException;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.spi.ConntrackPort;
import io.kproxy.backend.spi.KernelPort;
import io.kproxy.netlink.NfTableObjects;
import io.kproxy.state.NodeState;
import io.kproxy.state.StateDelta;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The nftables {@link Backend}. Render and diff are pure ({@link PlanRenderer}, {@link NftDiff});
 * apply, check, cleanup and conntrack go through the ports given at construction.
 */
final class NftBackend implements Backend {

    private static final Logger LOG = LoggerFactory.getLogger(NftBackend.class);

    private final KernelPort kernel;
    private final ConntrackPort conntrack;
    private final Optional<KernelTable.Reader> tables;
    private final AutoCloseable resources;
    /** The last takeover transaction handed out, so that its refusal can be told apart. */
    private volatile Transaction adoption;
    /** The kernel refused the last takeover: the next transaction from the kernel recreates the tables. */
    private volatile boolean adoptionRefused;
    /** The read {@link #willDiffFromKernel} started, for the next {@link #diffFromKernel}; null when none. */
    private volatile Forked<Read> reading;

    /** Both families' tables as read, how long that took, or why it failed. */
    private record Read(NfTableObjects v4, NfTableObjects v6, long millis, KernelException failure) {
    }

    NftBackend(KernelPort kernel, ConntrackPort conntrack, Optional<KernelTable.Reader> tables, AutoCloseable resources) {
        this.kernel = kernel;
        this.conntrack = conntrack;
        this.tables = tables;
        this.resources = resources;
    }

    @Override
    public String mode() {
        return NftablesProvider.MODE;
    }

    @Override
    public Plan render(NodeState state) {
        return PlanRenderer.render(state);
    }

    @Override
    public Plan renderIncremental(Plan previous, NodeState state, StateDelta delta) {
        return PlanRenderer.renderIncremental(nft(previous), state, delta);
    }

    @Override
    public Transaction diff(Optional<Plan> lastApplied, Plan desired, SyncOptions options) {
        return NftDiff.diff(lastApplied.map(NftBackend::nft), nft(desired), options);
    }

    /**
     * Keeps the tables as they are when they carry {@code desired}'s generation marker and
     * exactly its objects ({@link NftDiff#holds}); otherwise takes over the tables the kernel
     * holds ({@link NftDiff#adopt}) when they exist and the kernel has not refused the previous
     * takeover; otherwise, or without a reader, the tables are deleted and recreated.
     */
    @Override
    public Transaction diffFromKernel(Plan desired, SyncOptions options) throws KernelException {
        Forked<Read> ahead = reading;
        reading = null;
        if (tables.isEmpty() || adoptionRefused) {
            adoptionRefused = false;
            if (ahead != null) {
                ahead.join();
            }
            return diff(Optional.empty(), desired, options);
        }
        long start = System.nanoTime();
        Read r = ahead != null ? ahead.join() : read();
        if (r.failure() != null) {
            throw r.failure();
        }
        NfTableObjects v4 = r.v4();
        NfTableObjects v6 = r.v6();
        long read = r.millis();
        if (!v4.exists() && !v6.exists()) {
            return diff(Optional.empty(), desired, options);
        }
        NftPlan want = nft(desired);
        if (NftDiff.holds(v4, want.v4(), want.marker()) && NftDiff.holds(v6, want.v6(), want.marker())) {
            // A restart whose journal's state is the one the previous process programmed last:
            // nothing to write but the declarations (docs/backends/nftables.md, "Restart without rewriting").
            LOG.info("nftables take-over decision=keep-tables reason=generation-marker-matches ipv4_chains={} ipv6_chains={} ruleset={} read_ahead={} read_millis={} millis={}",
                    v4.chains().size(), v6.chains().size(), want.rulesetHash(), ahead != null, read, (System.nanoTime() - start) / 1_000_000);
            return NftDiff.kept(want);
        }
        Transaction tx = NftDiff.adopt(v4, v6, want, options.now());
        LOG.info("nftables take-over ipv4_chains={} ipv6_chains={} operations={} read_ahead={} read_millis={} millis={}", v4.chains().size(),
                v6.chains().size(), tx.operations(), ahead != null, read, (System.nanoTime() - start) / 1_000_000);
        adoption = tx;
        return tx;
    }

    /**
     * Starts reading both tables' names on a {@code kproxy-kernel-read} thread, for the next
     * {@link #diffFromKernel}, while the engine renders (the read at 100,000 Services: 2 s, mostly
     * the kernel's dump and the netlink thread's decoding). The engine's sync thread makes both
     * calls; a read left by a sync that failed before its diff is dropped for a new one.
     */
    @Override
    public void willDiffFromKernel() {
        if (tables.isPresent() && !adoptionRefused) {
            reading = Forked.start("kproxy-kernel-read", this::read);
        }
    }

    /** Both families' tables now; a failure is kept in the result, for the caller to throw. */
    private Read read() {
        long start = System.nanoTime();
        try {
            NfTableObjects v4 = tables.orElseThrow().read(NftFamily.V4);
            NfTableObjects v6 = tables.orElseThrow().read(NftFamily.V6);
            return new Read(v4, v6, (System.nanoTime() - start) / 1_000_000, null);
        } catch (KernelException e) {
            return new Read(null, null, (System.nanoTime() - start) / 1_000_000, e);
        }
    }

    @Override
    public void apply(Transaction transaction) throws KernelException {
        if (transaction.isEmpty()) {
            return;
        }
        long start = System.nanoTime();
        try {
            kernel.apply(transaction.text());
        } catch (KernelException e) {
            if (transaction == adoption && !e.retryable()) {
                adoptionRefused = true;
                LOG.warn("nftables take-over refused decision=recreate-tables-next-sync error=\"{}\"", e.getMessage());
            }
            throw e;
        } finally {
            if (transaction == adoption) {
                adoption = null;
            }
        }
        LOG.info("nftables apply kind={} operations={} millis={}", transaction.kind(), transaction.operations(),
                (System.nanoTime() - start) / 1_000_000);
    }

    @Override
    public void check(Transaction transaction) throws KernelException {
        if (!transaction.isEmpty()) {
            kernel.check(transaction.text());
        }
    }

    @Override
    public void cleanup() throws KernelException {
        // "add" first so that "delete" never fails on a table that is already gone; nothing
        // outside our two tables is touched (upstream's CleanupLeftovers).
        kernel.apply(cleanupText());
        LOG.info("nftables cleanup tables=\"ip kube-proxy, ip6 kube-proxy\"");
    }

    static String cleanupText() {
        return "add table ip kube-proxy\ndelete table ip kube-proxy\nadd table ip6 kube-proxy\ndelete table ip6 kube-proxy\n";
    }

    @Override
    public int cleanConntrack(List<ConntrackFilter> filters) throws KernelException {
        return filters.isEmpty() ? 0 : conntrack.delete(filters);
    }

    @Override
    public void close() {
        try {
            resources.close();
        } catch (Exception e) {
            LOG.warn("nftables close failed reason={}", e.toString());
        }
    }

    private static NftPlan nft(Plan plan) {
        if (plan instanceof NftPlan p) {
            return p;
        }
        throw new IllegalArgumentException("not an nftables plan: " + plan.mode());
    }
}
