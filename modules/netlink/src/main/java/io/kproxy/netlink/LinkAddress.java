package io.kproxy.netlink;

import java.net.Inet4Address;
import java.net.InetAddress;

/** An address on a network interface with its prefix length ({@code 10.96.0.10/32}). */
public record LinkAddress(InetAddress address, int prefixLength) {

    public LinkAddress {
        if (address == null) {
            throw new IllegalArgumentException("address is required");
        }
        int max = address instanceof Inet4Address ? 32 : 128;
        if (prefixLength < 0 || prefixLength > max) {
            throw new IllegalArgumentException("prefix /" + prefixLength + " does not fit " + address.getHostAddress());
        }
    }

    /** A host address: /32 for IPv4, /128 for IPv6 (how kube-proxy binds service addresses to kube-ipvs0). */
    public static LinkAddress host(InetAddress address) {
        return new LinkAddress(address, address instanceof Inet4Address ? 32 : 128);
    }

    @Override
    public String toString() {
        return address.getHostAddress() + "/" + prefixLength;
    }
}
