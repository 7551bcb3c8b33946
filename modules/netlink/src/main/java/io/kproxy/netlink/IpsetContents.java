package io.kproxy.netlink;

import java.util.List;

/** A set as the kernel lists it: name, type, family, members in the kernel's order. */
public record IpsetContents(String name, IpsetType type, boolean ipv6, List<IpsetEntry> entries) {
    public IpsetContents {
        if (name == null || type == null) {
            throw new IllegalArgumentException("name and type are required");
        }
        entries = List.copyOf(entries);
    }
}
