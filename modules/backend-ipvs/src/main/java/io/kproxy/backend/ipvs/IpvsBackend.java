package io.kproxy.backend.ipvs;

import io.kproxy.backend.Backend;
import io.kproxy.backend.ConntrackFilter;
import io.kproxy.backend.KernelException;
import io.kproxy.backend.Plan;
import io.kproxy.backend.Skipped;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.ipvs.spi.IpvsKernel;
import io.kproxy.backend.spi.ConntrackPort;
import io.kproxy.backend.spi.KernelPort;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.NodeState;
import io.kproxy.state.PersistentMap;
import io.kproxy.state.StateDelta;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ipvs {@link Backend}. Render is pure ({@link PlanRenderer}) in the node state and the
 * {@link HostFacts}: the node's local addresses as the node state holds them (recorded by the
 * engine from {@link #localAddresses}, which reads them at every sync as upstream lists them, so
 * that history renders what was programmed), and whether the configured scheduler exists, read
 * from the kernel just before the render (asked again at every render while it is missing); diff is pure in the two plans, the options and the snapshot of draining real
 * servers the backend holds (what the kernel's connection counts decided, as upstream's
 * graceful-termination manager holds it; docs/backends/ipvs.md), except that a forced full sync
 * compares with what the kernel holds ({@link #diff}). Apply, cleanup and the probe go through the
 * {@link IpvsKernel}; when built with a {@link KernelPort} the transaction text also goes to that
 * port first.
 */
final class IpvsBackend implements Backend {

    private static final Logger LOG = LoggerFactory.getLogger(IpvsBackend.class);

    private final PlanRenderer renderer;
    private final Applier applier;
    private final Optional<KernelPort> textPort;
    private final ConntrackPort conntrack;
    /** For {@link #cleanup} only, which has no node state: renders read the node's settings. */
    private final IpvsSettings settings;
    /** Whether the kernel has a scheduler: a yes kept until the next full render, a no asked again (the sync thread's only). */
    private final Map<String, Boolean> schedulers = new HashMap<>();

    IpvsBackend(IpvsSettings settings, boolean randomFully, IpvsKernel kernel, Optional<KernelPort> textPort,
            ConntrackPort conntrack, Clock clock) {
        this.settings = settings;
        this.renderer = new PlanRenderer(randomFully);
        this.applier = new Applier(kernel, clock);
        this.textPort = textPort;
        this.conntrack = conntrack;
    }

    @Override
    public String mode() {
        return IpvsProvider.MODE;
    }

    /** Reads the {@link HostFacts} afresh (the scheduler asked again), then renders. */
    @Override
    public Plan render(NodeState state) {
        schedulers.clear();
        return renderer.render(state, facts(state));
    }

    /** Other local addresses than the previous plan's (the node state's) render everything again. */
    @Override
    public Plan renderIncremental(Plan previous, NodeState state, StateDelta delta) {
        return renderer.renderIncremental(ipvs(previous), state, delta, facts(state));
    }

    /**
     * What the render needs beyond the node state's services: the local addresses the node state
     * recorded (none recorded: the Node object's, see {@link PartRenderer}), and whether the kernel
     * has the configured scheduler. A failed read fails the render (the engine retries it as a
     * failed sync); the Backend SPI's render declares no kernel exception, hence the unchecked one.
     */
    private HostFacts facts(NodeState state) {
        IpvsKernel k = applier.kernel();
        String scheduler = IpvsSettings.of(state.settings().ipvs()).scheduler();
        try {
            // A scheduler found is trusted until the next full render; a missing one is asked for at every render (cheap: none of
            // the node's virtual servers uses it), so that loading its module brings the virtual servers back at the next sync.
            Boolean known = schedulers.get(scheduler);
            boolean has = Boolean.TRUE.equals(known) || k.hasScheduler(scheduler);
            if (!has && known == null) {
                LOG.warn("decision=skip-scheduler mode=ipvs scheduler={} reason=\"the kernel has no ip_vs_{}: every virtual server is skipped\"",
                        scheduler, scheduler);
            } else if (has && Boolean.FALSE.equals(known)) {
                LOG.info("decision=scheduler-available mode=ipvs scheduler={}", scheduler);
            }
            schedulers.put(scheduler, has);
            List<IpAddress> local = state.node().localAddresses();
            return new HostFacts(local.isEmpty() ? Optional.empty() : Optional.of(local), has ? new TreeSet<>() : new TreeSet<>(Set.of(scheduler)));
        } catch (KernelException e) {
            throw new IllegalStateException("asking the kernel for scheduler " + scheduler + ": " + e.getMessage(), e);
        }
    }

    /**
     * Every local address but {@code kube-ipvs0}'s, loopback and IPv6 link-local ones, read now
     * (upstream's {@code GetAllLocalAddressesExcept}, {@code pkg/proxy/ipvs/proxier.go}); empty
     * when the kernel adapter cannot list them (the in-memory one before a test sets them).
     */
    @Override
    public Optional<List<IpAddress>> localAddresses() throws KernelException {
        return applier.kernel().localAddresses(PartText.DUMMY);
    }

    /**
     * The plan-to-plan diff ({@link IpvsDiff#diff}), except for a forced full sync with a last
     * plan (the engine's periodic one, a pin or node change): that one compares {@code desired}
     * with what the kernel holds, as upstream reconciles at every sync, so that a virtual server,
     * real server, set member or address changed by someone else is repaired; the last plan is
     * not trusted. Reading the kernel makes it an effect; a failed read is thrown unchecked (the
     * engine counts it a failed sync and its next one starts from the kernel again).
     */
    @Override
    public Transaction diff(Optional<Plan> lastApplied, Plan desired, SyncOptions options) {
        Optional<IpvsPlan> last = lastApplied.map(IpvsBackend::ipvs);
        if (options.forceFull() && last.isPresent()) {
            try {
                // Skips new since the last plan only: the hourly full sync does not report them again.
                return diffFromKernel(desired, options).withSkipped(newlySkipped(last, ipvs(desired)));
            } catch (KernelException e) {
                throw new IllegalStateException("reading the kernel for a full sync: " + e.getMessage(), e);
            }
        }
        return IpvsDiff.diff(last, ipvs(desired), options, applier.draining()).withSkipped(newlySkipped(last, ipvs(desired)));
    }

    @Override
    public Transaction diffFromKernel(Plan desired, SyncOptions options) throws KernelException {
        return IpvsDiff.fromKernel(KernelReader.read(applier.kernel()), ipvs(desired), options.now(), applier.draining())
                .withSkipped(newlySkipped(Optional.empty(), ipvs(desired)));
    }

    /**
     * The objects {@code desired} newly skips as bad input (docs/backends/ipvs.md, "Bad input"):
     * service ports skipped now but not in {@code last} (or skipped for another reason), and the
     * virtual-server conflicts of a family when they changed; everything skipped when there is no
     * last plan. O(change): the part maps are diffed structurally. The engine logs and counts them.
     */
    private static List<Skipped> newlySkipped(Optional<IpvsPlan> last, IpvsPlan desired) {
        List<Skipped> out = new ArrayList<>();
        for (IpFamily f : IpFamily.values()) {
            FamilyPlan d = desired.family(f);
            PersistentMap<ServicePortName, PortPart> before = last.map(p -> p.family(f).parts()).orElse(PersistentMap.empty());
            before.diff(d.parts(), new PersistentMap.DiffVisitor<>() {
                @Override
                public void added(ServicePortName key, PortPart value) {
                    value.skipped().ifPresent(out::add);
                }

                @Override
                public void removed(ServicePortName key, PortPart value) {
                }

                @Override
                public void changed(ServicePortName key, PortPart was, PortPart now) {
                    now.skipped().filter(s -> !was.skipped().equals(Optional.of(s))).ifPresent(out::add);
                }
            });
            List<String> conflicts = d.image().conflicts();
            if (!conflicts.equals(last.map(p -> p.family(f).image().conflicts()).orElse(List.of()))) {
                conflicts.forEach(c -> out.add(new Skipped(Skipped.Cause.DUPLICATE_VIRTUAL_SERVER, "virtual servers " + f, c)));
            }
        }
        return out;
    }

    @Override
    public void apply(Transaction transaction) throws KernelException {
        if (transaction.isEmpty()) {
            return;
        }
        long start = System.nanoTime();
        List<Op> ops = OpParser.parse(transaction.text());
        if (textPort.isPresent()) {
            textPort.get().apply(transaction.text());
        }
        applier.apply(ops);
        applier.forgetOutside(ipvs(transaction.result()));
        LOG.info("ipvs apply kind={} operations={} draining={} millis={}", transaction.kind(), ops.size(), applier.draining().due().size(),
                (System.nanoTime() - start) / 1_000_000);
    }

    /**
     * IPVS has no dry run: the check reads the transaction back ({@link OpParser}), so a text
     * that is not the backend's own is refused, and hands it to the text port's check if any.
     */
    @Override
    public void check(Transaction transaction) throws KernelException {
        if (transaction.isEmpty()) {
            return;
        }
        try {
            OpParser.parse(transaction.text());
        } catch (IllegalArgumentException e) {
            throw new KernelException(KernelException.Kind.FATAL, e.getMessage());
        }
        if (textPort.isPresent()) {
            textPort.get().check(transaction.text());
        }
    }

    @Override
    public void cleanup() throws KernelException {
        Cleanup.run(applier.kernel(), settings);
    }

    /**
     * The dummy device and the cluster-IP set are there (an {@code ipvsadm -C}-and-cleanup by
     * someone else removes them); a false answer makes the engine's next sync a full one from the
     * kernel ({@link #diffFromKernel}). Cheap, as it runs before every partial sync: one link
     * lookup and one set header ({@link IpvsKernel#setExists}, no members). It lists no virtual
     * servers (a dump of 10,000 took about 150 ms inside UML, docs/benchmarks.md), real servers,
     * members or addresses: what someone else changed there is repaired by the next full sync,
     * which reads the kernel ({@link #diff}).
     */
    @Override
    public boolean rulesIntact() throws KernelException {
        IpvsKernel k = applier.kernel();
        return k.linkExists(PartText.DUMMY) && k.setExists(IpSets.CLUSTER_IP.name(IpFamily.IPV4));
    }

    @Override
    public int cleanConntrack(List<ConntrackFilter> filters) throws KernelException {
        return filters.isEmpty() ? 0 : conntrack.delete(filters);
    }

    @Override
    public void close() {
        // The netlink sockets the provider opened are this backend's; any other port belongs to whoever made it.
        if (applier.kernel() instanceof NetlinkIpvsKernel k) {
            k.close();
        }
    }

    /** The draining real servers, for tests. */
    Draining draining() {
        return applier.draining();
    }

    static IpvsPlan ipvs(Plan plan) {
        if (plan instanceof IpvsPlan p) {
            return p;
        }
        throw new IllegalArgumentException("not an ipvs plan: " + plan.mode());
    }
}
