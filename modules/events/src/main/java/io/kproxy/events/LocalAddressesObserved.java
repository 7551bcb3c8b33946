package io.kproxy.events;

import io.kproxy.model.InvalidValueException;
import io.kproxy.model.IpAddress;
import io.kproxy.model.NodeName;
import java.util.List;
import java.util.TreeSet;

/**
 * The node's own local addresses as its agent read them from the kernel, recorded when they
 * differ from the last recorded set and before the sync that uses them, so that a rebuilt
 * ruleset ({@code render --at}, {@code diff}, {@code audit}, rollback) uses the addresses the
 * sync used. ipvs mode puts NodePort virtual servers on them (upstream's
 * {@code GetAllLocalAddressesExcept}, {@code pkg/proxy/ipvs/proxier.go}); see
 * {@code events/LocalAddressesObserved.md}.
 *
 * @param node      the node whose addresses these are
 * @param addresses every address but those on {@code kube-ipvs0}, loopback and IPv6 link-local
 *                  ones; sorted, without duplicates (normalised here, so that equal sets are
 *                  equal records and the encoding is canonical); may be empty
 */
public record LocalAddressesObserved(NodeName node, List<IpAddress> addresses) implements ClusterEvent {

    /** More than any node holds outside {@code kube-ipvs0}; bounds a record and a decode. */
    public static final int MAX_ADDRESSES = 4096;

    public LocalAddressesObserved {
        if (node == null || addresses == null) {
            throw new IllegalArgumentException("node and addresses are required");
        }
        addresses = List.copyOf(new TreeSet<>(addresses));
        if (addresses.size() > MAX_ADDRESSES) {
            throw new InvalidValueException("addresses", addresses.size(), "at most " + MAX_ADDRESSES);
        }
    }

    @Override
    public EventType type() {
        return EventType.LOCAL_ADDRESSES_OBSERVED;
    }
}
