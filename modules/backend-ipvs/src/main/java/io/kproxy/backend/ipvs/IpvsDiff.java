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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;

/**
 * The ordered kernel operations that take a kernel holding {@code last} to {@code desired}, as
 * upstream's {@code syncProxyRules} reconciles ({@code pkg/proxy/ipvs/proxier.go}), but computed
 * from two values instead of from listing the kernel at every sync. Per family: virtual servers
 * added or changed with their real servers, new addresses on {@code kube-ipvs0}, set members
 * (deleted, then added), the helper chains when their text changed, stale addresses unbound,
 * stale virtual servers deleted, then the due graceful-termination checks. A full transaction
 * first ensures the dummy device, the sysctls, the IPVS timeouts, every set and the jumps, and
 * always rewrites the helper chains. Nothing changed: no operation. Pure.
 */
final class IpvsDiff {

    /** What the kernel is known to hold for one family: from the last plan, or read from the kernel. */
    record Known(FamilyImage image, Optional<String> iptables) {
    }

    private IpvsDiff() {
    }

    static Transaction diff(Optional<IpvsPlan> last, IpvsPlan desired, SyncOptions options, Draining draining) {
        Optional<Map<IpFamily, Known>> known = last.map(l -> Map.of(IpFamily.IPV4, new Known(l.v4().image(), Optional.of(l.v4().iptables())),
                IpFamily.IPV6, new Known(l.v6().image(), Optional.of(l.v6().iptables()))));
        boolean full = last.isEmpty() || options.forceFull();
        return diff(known.orElse(Map.of(IpFamily.IPV4, empty(IpFamily.IPV4), IpFamily.IPV6, empty(IpFamily.IPV6))), desired, options.now(), full,
                draining, false);
    }

    /** From what was read from the kernel (a takeover): full, and virtual servers in {@code excludeCIDRs} are left alone. */
    static Transaction fromKernel(Map<IpFamily, Known> kernel, IpvsPlan desired, Instant now, Draining draining) {
        return diff(kernel, desired, now, true, draining, true);
    }

    static Known empty(IpFamily f) {
        return new Known(FamilyImage.of(f, List.of()), Optional.empty());
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
            family(ops, known.get(f), desired.family(f), full, draining, deferred, takeover ? desired.settings() : null);
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

    private static void family(List<Op> ops, Known last, FamilyPlan desired, boolean full, Draining draining, Deferred deferred,
            IpvsSettings takeover) {
        FamilyImage l = last.image();
        FamilyImage d = desired.image();
        for (VirtualServer vs : d.services().values()) {
            VirtualServer was = l.services().get(vs.key());
            SortedMap<String, RealServer> want = d.reals().get(vs.key());
            if (was == null) {
                ops.add(new Op.AddVs(vs));
                want.values().forEach(r -> ops.add(new Op.AddRs(vs.key(), r)));
                continue;
            }
            if (!was.equals(vs)) {
                ops.add(new Op.EditVs(vs));
            }
            reals(ops, vs.key(), l.reals().get(vs.key()), want, draining, deferred);
        }
        for (IpAddress a : d.addresses()) {
            if (!l.addresses().contains(a)) {
                ops.add(new Op.AddAddress(a));
            }
        }
        for (IpSets set : IpSets.values()) {
            SortedSet<String> had = l.entries().get(set);
            SortedSet<String> want = d.entries().get(set);
            had.stream().filter(e -> !want.contains(e)).forEach(e -> ops.add(new Op.DelEntry(set.name(d.family()), e)));
            want.stream().filter(e -> !had.contains(e)).forEach(e -> ops.add(new Op.AddEntry(set.name(d.family()), e)));
        }
        if (full || !last.iptables().equals(Optional.of(desired.iptables()))) {
            ops.add(new Op.Restore(d.family(), desired.iptables()));
        }
        if (full) {
            IptablesRules.JUMPS.forEach(j -> ops.add(new Op.Jump(d.family(), j)));
        }
        for (IpAddress a : l.addresses()) {
            if (!d.addresses().contains(a)) {
                ops.add(new Op.DelAddress(a));
            }
        }
        for (VsKey k : l.services().keySet()) {
            if (!d.services().containsKey(k) && (takeover == null || !takeover.excluded(k.address()))) {
                ops.add(new Op.DelVs(k));
                draining.due().keySet().stream().filter(r -> r.vs().equals(k)).forEach(deferred::gone);
            }
        }
        for (Map.Entry<RsKey, Instant> e : draining.due().entrySet()) {
            RsKey k = e.getKey();
            if (k.vs().address().family() != d.family() || e.getValue().isAfter(deferred.now)) {
                continue;
            }
            SortedMap<String, RealServer> want = d.reals().get(k.vs());
            if (want == null) {
                // Its virtual server is gone (deleted above, or before): nothing left to drain.
                deferred.gone(k);
            } else if (!want.containsKey(VsKey.hostPort(k.address(), k.port()))) {
                ops.add(new Op.Reap(k.vs(), k.address(), k.port()));
                deferred.drained(k);
            }
        }
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
