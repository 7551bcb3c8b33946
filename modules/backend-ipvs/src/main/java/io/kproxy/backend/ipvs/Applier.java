package io.kproxy.backend.ipvs;

import io.kproxy.backend.KernelException;
import io.kproxy.backend.ipvs.spi.Destination;
import io.kproxy.backend.ipvs.spi.IpvsKernel;
import io.kproxy.backend.ipvs.spi.VsKey;
import io.kproxy.model.IpAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link Op}s against an {@link IpvsKernel} in order, and keeps the list of draining real
 * servers as the kernel's connection counts decide it (upstream's
 * {@code GracefulTerminationManager}, {@code pkg/proxy/ipvs/graceful_termination.go}): a drained
 * TCP destination with no active or inactive connection is deleted at once, otherwise it gets
 * weight 0 and is checked again a minute later. The first failing operation stops the run and
 * is thrown; what ran before it stays (IPVS has no transactions), and the engine's next sync is
 * a full one from the kernel. The kernel port may send the operations in batches
 * ({@link IpvsKernel#flush()}). Not thread-safe: the engine's sync thread only. Blocks.
 */
final class Applier {

    private static final Logger LOG = LoggerFactory.getLogger(Applier.class);

    private final IpvsKernel kernel;
    private final Clock clock;
    private volatile Draining draining = Draining.NONE;

    Applier(IpvsKernel kernel, Clock clock) {
        this.kernel = kernel;
        this.clock = clock;
    }

    IpvsKernel kernel() {
        return kernel;
    }

    /** The real servers being drained now: an immutable snapshot. */
    Draining draining() {
        return draining;
    }

    /** Runs the operations, then flushes what the kernel port held back (also after a failure: what ran before it stays). */
    void apply(List<Op> ops) throws KernelException {
        try {
            run(ops);
        } catch (KernelException | RuntimeException e) {
            try {
                kernel.flush();
            } catch (KernelException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        kernel.flush();
    }

    private void run(List<Op> ops) throws KernelException {
        int drained = 0;
        int reaped = 0;
        for (Op op : ops) {
            switch (op) {
                case Op.EnsureLink l -> kernel.ensureDummyLink(PartText.DUMMY);
                case Op.Sysctl s -> kernel.setSysctl(s.name(), s.value());
                case Op.Timeouts t -> kernel.setTimeouts(Duration.ofSeconds(t.tcp()), Duration.ofSeconds(t.tcpFin()), Duration.ofSeconds(t.udp()));
                case Op.CreateSet c -> kernel.createSet(c.set());
                case Op.AddVs a -> kernel.addVirtualServer(a.vs());
                case Op.EditVs e -> kernel.updateVirtualServer(e.vs());
                case Op.DelVs d -> {
                    kernel.deleteVirtualServer(d.vs());
                    draining = draining.withoutService(d.vs());
                }
                case Op.AddRs a -> kernel.addRealServer(a.vs(), a.rs());
                case Op.EditRs e -> {
                    kernel.updateRealServer(e.vs(), e.rs());
                    draining = draining.without(new RsKey(e.vs(), e.rs().address(), e.rs().port()));
                }
                case Op.Drain d -> {
                    RsKey k = new RsKey(d.vs(), d.rs().address(), d.rs().port());
                    if (deleteIfIdle(d.vs(), d.rs().address(), d.rs().port())) {
                        draining = draining.without(k);
                    } else {
                        kernel.updateRealServer(d.vs(), d.rs());
                        draining = draining.with(k, clock.instant().plus(Draining.CHECK_INTERVAL));
                        drained++;
                    }
                }
                case Op.Reap r -> {
                    RsKey k = new RsKey(r.vs(), r.address(), r.port());
                    if (deleteIfIdle(r.vs(), r.address(), r.port())) {
                        draining = draining.without(k);
                        reaped++;
                    } else {
                        draining = draining.with(k, clock.instant().plus(Draining.CHECK_INTERVAL));
                    }
                }
                case Op.DelRs d -> {
                    kernel.deleteRealServer(d.vs(), d.address(), d.port());
                    draining = draining.without(new RsKey(d.vs(), d.address(), d.port()));
                }
                case Op.AddEntry a -> kernel.addSetEntry(a.set(), a.entry());
                case Op.DelEntry d -> kernel.deleteSetEntry(d.set(), d.entry());
                case Op.AddAddress a -> kernel.addAddress(PartText.DUMMY, a.address());
                case Op.DelAddress d -> kernel.deleteAddress(PartText.DUMMY, d.address());
                case Op.Jump j -> kernel.ensureJump(j.family(), j.jump().table(), j.jump().chain(), j.jump().comment(), j.jump().target());
                case Op.Restore r -> kernel.iptablesRestore(r.family(), r.rules());
            }
        }
        if (drained + reaped > 0) {
            LOG.info("decision=graceful-termination drained={} deleted_idle={} draining={}", drained, reaped, draining.due().size());
        }
    }

    /**
     * Upstream's {@code deleteRsFunc}: deletes the destination when it has no connections; true
     * when it is gone (deleted now, or already).
     */
    private boolean deleteIfIdle(VsKey vs, IpAddress address, int port) throws KernelException {
        String hp = VsKey.hostPort(address, port);
        Optional<Destination> d = kernel.realServers(vs).stream().filter(x -> x.server().hostPort().equals(hp)).findFirst();
        if (d.isEmpty()) {
            return true;
        }
        if (!d.get().idle()) {
            return false;
        }
        kernel.deleteRealServer(vs, address, port);
        return true;
    }

    /** Forgets draining real servers whose virtual server the plan no longer has. */
    void forgetOutside(IpvsPlan plan) {
        Draining d = draining;
        for (RsKey k : d.due().keySet()) {
            if (!plan.family(k.vs().address().family()).image().service(k.vs()).isPresent()) {
                d = d.without(k);
            }
        }
        draining = d;
    }
}
