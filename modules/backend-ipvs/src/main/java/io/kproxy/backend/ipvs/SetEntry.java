package io.kproxy.backend.ipvs;

/**
 * One member of one of upstream's ipsets, in {@code ipset save}'s spelling (upstream's
 * {@code Entry.String()}, {@code pkg/proxy/ipvs/ipset/ipset.go}): {@code ip}, {@code ip,proto:port},
 * {@code ip,proto:port,ip2}, {@code ip,proto:port,net} or {@code port}. Immutable.
 */
record SetEntry(IpSets set, String entry) {

    SetEntry {
        if (set == null || entry == null || entry.isEmpty()) {
            throw new IllegalArgumentException("set and entry are required");
        }
    }
}
