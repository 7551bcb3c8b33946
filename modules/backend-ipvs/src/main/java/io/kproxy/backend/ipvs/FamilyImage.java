package io.kproxy.backend.ipvs;

import io.kproxy.backend.ipvs.spi.RealServer;
import io.kproxy.backend.ipvs.spi.VirtualServer;
import io.kproxy.backend.ipvs.spi.VsKey;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the kernel holds for one family when a plan is applied: virtual servers with their real
 * servers, the addresses on {@code kube-ipvs0}, the members of every ipset, and the
 * {@code KUBE-IPVS-OUT-FILTER} rules. Built from the service ports' parts in key order; an object
 * two ports want (two ports of one Service share the cluster IP's address, the health-check node
 * port) is held once. A virtual server two ports claim goes to the first port in key order and
 * the conflict is reported ({@link #conflicts()}), so that a full render and an incremental one
 * agree. Also read back from a kernel ({@link KernelReader}). Immutable once built.
 *
 * @param family    the family
 * @param services  virtual servers by key
 * @param reals     real servers of each virtual server, by {@code ip:port}
 * @param addresses the addresses on {@code kube-ipvs0}
 * @param entries   the members of each set (every set present, possibly empty)
 * @param outFilter the {@code KUBE-IPVS-OUT-FILTER} rules, in service-port order
 * @param conflicts the virtual servers dropped because an earlier port claimed them
 */
record FamilyImage(IpFamily family, SortedMap<VsKey, VirtualServer> services, SortedMap<VsKey, SortedMap<String, RealServer>> reals,
        SortedSet<IpAddress> addresses, Map<IpSets, SortedSet<String>> entries, List<String> outFilter, List<String> conflicts) {

    FamilyImage {
        services = Collections.unmodifiableSortedMap(services);
        reals = Collections.unmodifiableSortedMap(reals);
        addresses = Collections.unmodifiableSortedSet(addresses);
        entries = Collections.unmodifiableMap(entries);
        outFilter = List.copyOf(outFilter);
        conflicts = List.copyOf(conflicts);
    }

    /** The image of a family's parts, in their (service-port) order. */
    static FamilyImage of(IpFamily family, Iterable<PortPart> parts) {
        TreeMap<VsKey, VirtualServer> services = new TreeMap<>();
        TreeMap<VsKey, SortedMap<String, RealServer>> reals = new TreeMap<>();
        TreeSet<IpAddress> addresses = new TreeSet<>();
        EnumMap<IpSets, SortedSet<String>> entries = emptySets();
        List<String> outFilter = new ArrayList<>();
        List<String> conflicts = new ArrayList<>();
        Map<VsKey, String> owner = new TreeMap<>();
        for (PortPart part : parts) {
            for (VsEntry e : part.services()) {
                VsKey k = e.vs().key();
                String first = owner.putIfAbsent(k, part.name().toString());
                if (first != null) {
                    conflicts.add(k + " of " + part.name() + " is already " + first + "'s");
                    continue;
                }
                services.put(k, e.vs());
                TreeMap<String, RealServer> rs = new TreeMap<>();
                e.reals().forEach(r -> rs.put(r.hostPort(), r));
                reals.put(k, rs);
                if (e.bind()) {
                    addresses.add(k.address());
                }
            }
            part.entries().forEach(se -> entries.get(se.set()).add(se.entry()));
            outFilter.addAll(part.outFilter());
        }
        return new FamilyImage(family, services, reals, addresses, entries, outFilter, conflicts);
    }

    static EnumMap<IpSets, SortedSet<String>> emptySets() {
        EnumMap<IpSets, SortedSet<String>> m = new EnumMap<>(IpSets.class);
        for (IpSets s : IpSets.values()) {
            m.put(s, new TreeSet<>());
        }
        return m;
    }

    boolean empty(IpSets set) {
        return entries.get(set).isEmpty();
    }
}
