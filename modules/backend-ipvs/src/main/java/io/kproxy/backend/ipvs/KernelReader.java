package io.kproxy.backend.ipvs;

import io.kproxy.backend.KernelException;
import io.kproxy.backend.ipvs.spi.Destination;
import io.kproxy.backend.ipvs.spi.IpvsKernel;
import io.kproxy.backend.ipvs.spi.RealServer;
import io.kproxy.backend.ipvs.spi.VirtualServer;
import io.kproxy.backend.ipvs.spi.VsKey;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads what the ipvs mode owns from a kernel into one {@link IpvsDiff.Known} per family, so that
 * a restarted agent takes the node over in place (upstream reconciles against the kernel at
 * every sync): every virtual server of the family with its destinations, the addresses on
 * {@code kube-ipvs0}, the members of upstream's sets. The helper chains are not read back; a
 * takeover rewrites them. Blocks.
 */
final class KernelReader {

    private KernelReader() {
    }

    static Map<IpFamily, IpvsDiff.Known> read(IpvsKernel kernel) throws KernelException {
        List<VirtualServer> all = kernel.virtualServers();
        List<IpAddress> bound = kernel.addresses(PartText.DUMMY);
        Set<String> sets = new HashSet<>(kernel.sets());
        Map<IpFamily, IpvsDiff.Known> out = new EnumMap<>(IpFamily.class);
        for (IpFamily f : IpFamily.values()) {
            TreeMap<VsKey, VirtualServer> services = new TreeMap<>();
            TreeMap<VsKey, SortedMap<String, RealServer>> reals = new TreeMap<>();
            for (VirtualServer vs : all) {
                if (vs.key().address().family() != f) {
                    continue;
                }
                services.put(vs.key(), vs);
                TreeMap<String, RealServer> rs = new TreeMap<>();
                for (Destination d : kernel.realServers(vs.key())) {
                    rs.put(d.server().hostPort(), d.server());
                }
                reals.put(vs.key(), rs);
            }
            TreeSet<IpAddress> addresses = new TreeSet<>(bound.stream().filter(a -> a.family() == f).toList());
            EnumMap<IpSets, SortedSet<String>> entries = new EnumMap<>(IpSets.class);
            for (IpSets s : IpSets.values()) {
                entries.put(s, new TreeSet<>());
                if (sets.contains(s.name(f))) {
                    entries.get(s).addAll(kernel.setEntries(s.name(f)));
                }
            }
            out.put(f, new IpvsDiff.Known(new KernelImage(f, services, reals, addresses, entries), Optional.empty(), Optional.empty()));
        }
        return out;
    }
}
