package io.kproxy.backend.iptables;

import io.kproxy.backend.Backend;
import io.kproxy.backend.ConntrackFilter;
import io.kproxy.backend.KernelException;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.spi.ConntrackPort;
import io.kproxy.state.NodeState;
import io.kproxy.state.StateDelta;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The iptables {@link Backend}. Render and diff are pure ({@link PlanRenderer}, {@link IptDiff});
 * apply, check, cleanup, the canary probe and conntrack go through the {@link Applier} and
 * {@link ConntrackPort} given at construction.
 */
final class IptablesBackend implements Backend {

    private static final Logger LOG = LoggerFactory.getLogger(IptablesBackend.class);

    private final PlanRenderer renderer;
    private final Applier applier;
    private final ConntrackPort conntrack;

    IptablesBackend(Features features, Applier applier, ConntrackPort conntrack) {
        this.renderer = new PlanRenderer(features);
        this.applier = applier;
        this.conntrack = conntrack;
    }

    @Override
    public String mode() {
        return IptablesProvider.MODE;
    }

    @Override
    public Plan render(NodeState state) {
        return renderer.render(state);
    }

    @Override
    public Plan renderIncremental(Plan previous, NodeState state, StateDelta delta) {
        return renderer.renderIncremental(ipt(previous), state, delta);
    }

    @Override
    public Transaction diff(Optional<Plan> lastApplied, Plan desired, SyncOptions options) {
        return IptDiff.diff(lastApplied.map(IptablesBackend::ipt), ipt(desired), options);
    }

    @Override
    public void apply(Transaction transaction) throws KernelException {
        if (transaction.isEmpty()) {
            return;
        }
        long start = System.nanoTime();
        applier.apply(transaction, ipt(transaction.result()));
        LOG.info("iptables apply kind={} operations={} via={} millis={}", transaction.kind(), transaction.operations(), applier.describe(),
                (System.nanoTime() - start) / 1_000_000);
    }

    @Override
    public void check(Transaction transaction) throws KernelException {
        if (!transaction.isEmpty()) {
            applier.check(transaction);
        }
    }

    @Override
    public void cleanup() throws KernelException {
        applier.cleanup();
    }

    @Override
    public boolean rulesIntact() throws KernelException {
        return applier.rulesIntact();
    }

    @Override
    public int cleanConntrack(List<ConntrackFilter> filters) throws KernelException {
        return filters.isEmpty() ? 0 : conntrack.delete(filters);
    }

    @Override
    public void close() {
        applier.close();
    }

    private static IptPlan ipt(Plan plan) {
        if (plan instanceof IptPlan p) {
            return p;
        }
        throw new IllegalArgumentException("not an iptables plan: " + plan.mode());
    }
}
