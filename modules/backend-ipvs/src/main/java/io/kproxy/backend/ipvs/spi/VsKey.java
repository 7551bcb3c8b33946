package io.kproxy.backend.ipvs.spi;

import io.kproxy.model.IpAddress;
import io.kproxy.model.Protocol;
import java.util.Comparator;

/**
 * What identifies an IPVS virtual server: protocol, address and port (upstream's
 * {@code VirtualServer.String()}, {@code pkg/proxy/ipvs/util/ipvs.go}). Immutable; no null
 * components.
 */
public record VsKey(Protocol protocol, IpAddress address, int port) implements Comparable<VsKey> {

    private static final Comparator<VsKey> ORDER = Comparator.comparing(VsKey::address).thenComparing(VsKey::protocol)
            .thenComparingInt(VsKey::port);

    public VsKey {
        if (protocol == null || address == null) {
            throw new IllegalArgumentException("protocol and address are required");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be 1..65535: " + port);
        }
    }

    /** {@code ipvsadm}'s service option: {@code -t 10.0.0.1:80}, {@code -u [fd00::1]:53}, {@code --sctp-service ...}. */
    public String ipvsadm() {
        String flag = switch (protocol) {
            case TCP -> "-t";
            case UDP -> "-u";
            case SCTP -> "--sctp-service";
        };
        return flag + " " + hostPort(address, port);
    }

    /** {@code ip:port}, IPv6 in brackets (Go's {@code net.JoinHostPort}). */
    public static String hostPort(IpAddress ip, int port) {
        return ip.isIpv6() ? "[" + ip + "]:" + port : ip + ":" + port;
    }

    @Override
    public int compareTo(VsKey o) {
        return ORDER.compare(this, o);
    }

    @Override
    public String toString() {
        return ipvsadm();
    }
}
