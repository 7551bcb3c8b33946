package io.kproxy.backend.ipvs;

import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What a render needs beyond the node state's services: the local addresses the node state
 * recorded, and the schedulers the kernel lacks, read by the backend before each render
 * (docs/backends/ipvs.md, "Node addresses" and "Bad input"). Immutable; normalised
 * (sorted, no duplicates) so that two reads of an unchanged node are equal.
 *
 * @param localAddresses    every local address but those on {@code kube-ipvs0} (upstream's
 *                          {@code GetAllLocalAddressesExcept}), where NodePort virtual servers go,
 *                          as the node state recorded them ({@code LocalAddressesObserved});
 *                          empty when none was recorded, and the Node object's addresses are
 *                          used then
 * @param missingSchedulers the schedulers the kernel lacks, among those the node's settings name
 */
record HostFacts(Optional<List<IpAddress>> localAddresses, SortedSet<String> missingSchedulers) {

    /** Nothing read from a kernel: the Node object's addresses, every scheduler available. */
    static final HostFacts NONE = new HostFacts(Optional.empty(), new TreeSet<>());

    HostFacts {
        if (localAddresses == null || missingSchedulers == null) {
            throw new IllegalArgumentException("localAddresses and missingSchedulers are required");
        }
        localAddresses = localAddresses.map(l -> List.copyOf(new TreeSet<>(l)));
        missingSchedulers = Collections.unmodifiableSortedSet(new TreeSet<>(missingSchedulers));
    }

    /** The local addresses of {@code family}, when known. */
    Optional<List<IpAddress>> local(IpFamily family) {
        return localAddresses.map(l -> l.stream().filter(a -> a.family() == family).toList());
    }
}
