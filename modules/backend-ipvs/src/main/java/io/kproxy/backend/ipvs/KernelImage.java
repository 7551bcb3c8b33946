package io.kproxy.backend.ipvs;

import io.kproxy.backend.ipvs.spi.RealServer;
import io.kproxy.backend.ipvs.spi.VirtualServer;
import io.kproxy.backend.ipvs.spi.VsKey;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An {@link Image} read back from a kernel ({@link KernelReader}) or empty. Immutable.
 *
 * @param family    the family
 * @param services  the virtual servers by key
 * @param reals     each virtual server's real servers by {@code ip:port}
 * @param bound     the addresses on {@code kube-ipvs0}
 * @param entries   the members of each set (every set present, possibly empty)
 */
record KernelImage(IpFamily family, SortedMap<VsKey, VirtualServer> services, SortedMap<VsKey, SortedMap<String, RealServer>> realServers,
        SortedSet<IpAddress> bound, Map<IpSets, SortedSet<String>> entries) implements Image {

    KernelImage {
        services = Collections.unmodifiableSortedMap(new TreeMap<>(services));
        realServers = Collections.unmodifiableSortedMap(new TreeMap<>(realServers));
        bound = Collections.unmodifiableSortedSet(new TreeSet<>(bound));
        EnumMap<IpSets, SortedSet<String>> copy = new EnumMap<>(IpSets.class);
        for (IpSets s : IpSets.values()) {
            copy.put(s, Collections.unmodifiableSortedSet(new TreeSet<>(entries.getOrDefault(s, new TreeSet<>()))));
        }
        entries = Collections.unmodifiableMap(copy);
    }

    static KernelImage empty(IpFamily family) {
        return new KernelImage(family, new TreeMap<>(), new TreeMap<>(), new TreeSet<>(), Map.of());
    }

    @Override
    public Optional<VirtualServer> service(VsKey key) {
        return Optional.ofNullable(services.get(key));
    }

    @Override
    public SortedMap<String, RealServer> reals(VsKey key) {
        return realServers.getOrDefault(key, Collections.emptySortedMap());
    }

    @Override
    public Collection<VsKey> serviceKeys() {
        return services.keySet();
    }

    @Override
    public int serviceCount() {
        return services.size();
    }

    @Override
    public boolean bound(IpAddress address) {
        return bound.contains(address);
    }

    @Override
    public Collection<IpAddress> addresses() {
        return bound;
    }

    @Override
    public boolean member(IpSets set, String entry) {
        return entries.get(set).contains(entry);
    }

    @Override
    public Collection<String> members(IpSets set) {
        return entries.get(set);
    }

    @Override
    public List<String> conflicts() {
        return List.of();
    }
}
