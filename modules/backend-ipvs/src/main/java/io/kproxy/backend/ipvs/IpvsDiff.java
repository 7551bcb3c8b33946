package io.kproxy.backend.ipvs;

import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.ipvs.spi.RealServer;
import io.kproxy.backend.ipvs.spi.VirtualServer;
import io.kproxy.backend.ipvs.spi.VsKey;
import io.kproxy.events.SyncKind;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Protocol;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The ordered kernel operations that take a kernel holding {@code last} to {@code desired}, as
 * upstream's {@code syncProxyRules} reconciles ({@code pkg/proxy/ipvs/proxier.go}), but computed
 * from two images ({@link Image}) instead of from listing the kernel at every sync; a partial
 * diff looks only at the objects the changed service ports touch ({@link Touched}). Per family: virtual servers
 * added or changed with their real servers, new addresses on {@code kube-ipvs0}, set members
 * (deleted, then added), the helper chains when their text changed, stale addresses unbound,
 * stale virtual servers deleted, then the due graceful-termination checks. A full transaction
 * first ensures the dummy device, the sysctls, the IPVS timeouts, every set and the jumps, and
 * always rewrites the helper chains. Nothing changed: no operation. Pure in its arguments (the
 * draining real servers are one of them).
 */
final class IpvsDiff {

    /**
     * What the kernel is known to hold for one family: from the last plan (with the plan, so that
     * a partial diff visits only the service ports that changed), or read from the kernel.
     */
    record Known(Image image, Optional<String> iptables, Optional<FamilyPlan> plan) {
    }

    private IpvsDiff() {
    }

    static Transaction diff(Optional<IpvsPlan> last, IpvsPlan desired, SyncOptions options, Draining draining) {
        Optional<Map<IpFamily, Known>> known = last.map(l -> Map.of(IpFamily.IPV4, known(l.v4()), IpFamily.IPV6, known(l.v6())));
        // Sysctls and timeouts go with full transactions only, so a change of the node's ipvs settings is one.
        boolean full = last.isEmpty() || options.forceFull() || !last.get().settings().equals(desired.settings());
        return diff(known.orElse(Map.of(IpFamily.IPV4, empty(IpFamily.IPV4), IpFamily.IPV6, empty(IpFamily.IPV6))), desired, options.now(), full,
                draining, false);
    }

    /** From what was read from the kernel (a takeover): full, and virtual servers in {@code excludeCIDRs} are left alone. */
    static Transaction fromKernel(Map<IpFamily, Known> kernel, IpvsPlan desired, Instant now, Draining draining) {
        return diff(kernel, desired, now, true, draining, true);
    }

    static Known empty(IpFamily f) {
        return new Known(KernelImage.empty(f), Optional.empty(), Optional.empty());
    }

    private static Known known(FamilyPlan p) {
        return new Known(p.image(), Optional.of(p.iptables()), Optional.of(p));
    }

    private static Transaction diff(Map<IpFamily, Known> known, IpvsPlan desired, Instant now, boolean full, Draining draining, boolean takeover) {
        List<Op> ops = new ArrayList<>();
        if (full) {
            ops.add(new Op.EnsureLink());
            Sysctls.wanted(desired.settings()).forEach((k, v) -> ops.add(new Op.Sysctl(k, v)));
            IpvsSettings s = desired.settings();
            if (s.setsTimeouts()) {
                ops.add(new Op.Timeouts(s.tcpTimeout().toSeconds(), s.tcpFinTimeout().toSeconds(), s.udpTimeout().toSeconds()));
            }
            for (IpFamily f : IpFamily.values()) {
                IpSets.specs(f).forEach(spec -> ops.add(new Op.CreateSet(spec)));
            }
        }
        Deferred deferred = new Deferred(now, draining);
        for (IpFamily f : IpFamily.values()) {
            family(ops, known.get(f), desired.family(f), full, draining, deferred, takeover, desired.settings());
        }
        return new Transaction(IpvsProvider.MODE, full ? SyncKind.FULL : SyncKind.PARTIAL, ops.size(), text(ops),
                desired.withDeferred(deferred.next()));
    }

    /** Collects when the next graceful-termination check is due once these operations ran. */
    private static final class Deferred {
        private final Instant now;
        private final TreeMap<RsKey, Instant> due;

        Deferred(Instant now, Draining draining) {
            this.now = now;
            this.due = new TreeMap<>(draining.due());
        }

        void drained(RsKey k) {
            due.put(k, now.plus(Draining.CHECK_INTERVAL));
        }

        void gone(RsKey k) {
            due.remove(k);
        }

        Optional<Instant> next() {
            return due.values().stream().min(Instant::compareTo);
        }
    }

    /** One family's operations; a takeover leaves the virtual servers inside {@code excludeCIDRs} alone. */
    private static void family(List<Op> ops, Known last, FamilyPlan desired, boolean full, Draining draining, Deferred deferred,
            boolean takeover, IpvsSettings settings) {
        Image l = last.image();
        Image d = desired.image();
        // A partial diff looks only at what the changed service ports touch; a full one at everything.
        Optional<Touched> touched = full ? Optional.empty() : last.plan().map(p -> Touched.between(p, desired));
        SortedSet<VsKey> services = touched.map(t -> t.services).orElseGet(() -> union(l.serviceKeys(), d.serviceKeys()));
        for (VsKey k : services) {
            Optional<VirtualServer> want = d.service(k);
            if (want.isEmpty()) {
                continue;
            }
            Optional<VirtualServer> was = l.service(k);
            if (was.isEmpty()) {
                ops.add(new Op.AddVs(want.get()));
                d.reals(k).values().forEach(r -> ops.add(new Op.AddRs(k, r)));
                continue;
            }
            if (!was.get().equals(want.get())) {
                ops.add(new Op.EditVs(want.get()));
            }
            reals(ops, k, l.reals(k), d.reals(k), draining, deferred);
        }
        SortedSet<IpAddress> addresses = touched.map(t -> t.addresses).orElseGet(() -> union(l.addresses(), d.addresses()));
        for (IpAddress a : addresses) {
            if (d.bound(a) && !l.bound(a)) {
                ops.add(new Op.AddAddress(a));
            }
        }
        for (IpSets set : IpSets.values()) {
            SortedSet<String> members = touched.map(t -> t.members.get(set)).orElseGet(() -> union(l.members(set), d.members(set)));
            members.stream().filter(e -> l.member(set, e) && !d.member(set, e)).forEach(e -> ops.add(new Op.DelEntry(set.name(d.family()), e)));
            members.stream().filter(e -> d.member(set, e) && !l.member(set, e)).forEach(e -> ops.add(new Op.AddEntry(set.name(d.family()), e)));
        }
        if (full || !last.iptables().equals(Optional.of(desired.iptables()))) {
            ops.add(new Op.Restore(d.family(), desired.iptables()));
        }
        if (full) {
            IptablesRules.JUMPS.forEach(j -> ops.add(new Op.Jump(d.family(), j)));
        }
        for (IpAddress a : addresses) {
            if (l.bound(a) && !d.bound(a)) {
                ops.add(new Op.DelAddress(a));
            }
        }
        for (VsKey k : services) {
            if (l.service(k).isPresent() && d.service(k).isEmpty() && !(takeover && settings.excluded(k.address()))) {
                ops.add(new Op.DelVs(k));
                draining.due().keySet().stream().filter(r -> r.vs().equals(k)).forEach(deferred::gone);
            }
        }
        for (Map.Entry<RsKey, Instant> e : draining.due().entrySet()) {
            RsKey k = e.getKey();
            if (k.vs().address().family() != d.family() || e.getValue().isAfter(deferred.now)) {
                continue;
            }
            if (d.service(k.vs()).isEmpty()) {
                // Its virtual server is gone (deleted above, or before): nothing left to drain.
                deferred.gone(k);
            } else if (!d.reals(k.vs()).containsKey(VsKey.hostPort(k.address(), k.port()))) {
                ops.add(new Op.Reap(k.vs(), k.address(), k.port()));
                deferred.drained(k);
            }
        }
    }

    private static <T extends Comparable<? super T>> SortedSet<T> union(Collection<T> a, Collection<T> b) {
        TreeSet<T> u = new TreeSet<>(a);
        u.addAll(b);
        return u;
    }

    /** The real-server changes of one virtual server both sides have. */
    private static void reals(List<Op> ops, VsKey vs, SortedMap<String, RealServer> had, SortedMap<String, RealServer> want, Draining draining,
            Deferred deferred) {
        for (RealServer r : want.values()) {
            RealServer was = had.get(r.hostPort());
            RsKey key = new RsKey(vs, r.address(), r.port());
            if (was == null && draining.contains(key)) {
                // Back before it was deleted: serve again (upstream deletes and re-adds it; same result).
                ops.add(new Op.EditRs(vs, r));
                deferred.gone(key);
            } else if (was == null) {
                ops.add(new Op.AddRs(vs, r));
            } else if (!was.equals(r)) {
                ops.add(new Op.EditRs(vs, r));
                deferred.gone(key);
            }
        }
        for (RealServer r : had.values()) {
            if (want.containsKey(r.hostPort())) {
                continue;
            }
            RsKey key = new RsKey(vs, r.address(), r.port());
            if (vs.protocol() == Protocol.TCP) {
                if (!draining.contains(key)) {
                    ops.add(new Op.Drain(vs, r));
                    deferred.drained(key);
                }
            } else {
                ops.add(new Op.DelRs(vs, r.address(), r.port()));
                deferred.gone(key);
            }
        }
    }

    static String text(List<Op> ops) {
        if (ops.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        ops.forEach(o -> b.append(o.text()).append('\n'));
        return b.toString();
    }
}
