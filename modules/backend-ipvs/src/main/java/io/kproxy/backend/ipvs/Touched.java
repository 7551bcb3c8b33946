package io.kproxy.backend.ipvs;

import io.kproxy.backend.ipvs.spi.VsKey;
import io.kproxy.model.IpAddress;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.PersistentMap;
import java.util.EnumMap;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The kernel objects a partial sync must look at: those that a service port changed between two
 * family plans had before or has now (virtual servers, addresses, set members), found by
 * {@link PersistentMap#diff}, which skips what the plans share. Everything else is the same in
 * both images. Built once per diff; mutable while built, then only read.
 */
final class Touched {

    final SortedSet<VsKey> services = new TreeSet<>();
    final SortedSet<IpAddress> addresses = new TreeSet<>();
    final Map<IpSets, SortedSet<String>> members = new EnumMap<>(IpSets.class);

    private Touched() {
        for (IpSets s : IpSets.values()) {
            members.put(s, new TreeSet<>());
        }
    }

    static Touched between(FamilyPlan last, FamilyPlan desired) {
        Touched t = new Touched();
        last.parts().diff(desired.parts(), new PersistentMap.DiffVisitor<>() {
            @Override
            public void added(ServicePortName key, PortPart value) {
                t.add(value);
            }

            @Override
            public void removed(ServicePortName key, PortPart value) {
                t.add(value);
            }

            @Override
            public void changed(ServicePortName key, PortPart before, PortPart after) {
                t.add(before);
                t.add(after);
            }
        });
        return t;
    }

    private void add(PortPart p) {
        for (VsEntry v : p.services()) {
            services.add(v.vs().key());
            if (v.bind()) {
                addresses.add(v.vs().key().address());
            }
        }
        p.entries().forEach(e -> members.get(e.set()).add(e.entry()));
    }
}
