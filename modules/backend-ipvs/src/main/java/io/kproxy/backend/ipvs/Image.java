package io.kproxy.backend.ipvs;

import io.kproxy.backend.ipvs.spi.RealServer;
import io.kproxy.backend.ipvs.spi.VirtualServer;
import io.kproxy.backend.ipvs.spi.VsKey;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;

/**
 * What the kernel holds, or will hold, for one family's ipvs mode, as {@link IpvsDiff} compares
 * it: virtual servers with their real servers, the addresses on {@code kube-ipvs0}, the members
 * of each set. Derived from a plan ({@link FamilyImage}, persistent and updated per service
 * port) or read from a kernel ({@link KernelImage}). Lookups by key cost O(log n); the
 * collections iterate in ascending order. Immutable.
 */
sealed interface Image permits FamilyImage, KernelImage {

    IpFamily family();

    Optional<VirtualServer> service(VsKey key);

    /** The real servers of a virtual server by {@code ip:port}; empty when it has none or does not exist. */
    SortedMap<String, RealServer> reals(VsKey key);

    /** Every virtual server's key, ascending. */
    Collection<VsKey> serviceKeys();

    int serviceCount();

    boolean bound(IpAddress address);

    /** The addresses on {@code kube-ipvs0}, ascending. */
    Collection<IpAddress> addresses();

    boolean member(IpSets set, String entry);

    /** A set's members, ascending. */
    Collection<String> members(IpSets set);

    /** The virtual servers two service ports claimed, as report lines; empty for a kernel. */
    List<String> conflicts();
}
