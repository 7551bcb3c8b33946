package io.kproxy.netlink;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/** One member of a set, shaped by the set's type; {@link #text()} is how {@code ipset list} prints it. */
public sealed interface IpsetEntry {

    /** The set type this entry belongs in. */
    IpsetType type();

    /** The member as {@code ipset list} and {@code ipset add} write it, e.g. {@code 10.96.0.10,tcp:80}. */
    String text();

    /** A {@code hash:ip} member. */
    record Ip(InetAddress ip) implements IpsetEntry {
        public Ip {
            require(ip != null);
        }

        public IpsetType type() {
            return IpsetType.HASH_IP;
        }

        public String text() {
            return ip.getHostAddress();
        }
    }

    /** A {@code hash:ip,port} member: address, protocol number, port. */
    record IpPort(InetAddress ip, int protocol, int port) implements IpsetEntry {
        public IpPort {
            require(ip != null && validPort(port) && protocol > 0 && protocol < 256);
        }

        public IpsetType type() {
            return IpsetType.HASH_IP_PORT;
        }

        public String text() {
            return addr(ip) + "," + proto(protocol) + ":" + port;
        }
    }

    /** A {@code hash:ip,port,ip} member (upstream's loopback set: a pod reaching itself through its service). */
    record IpPortIp(InetAddress ip, int protocol, int port, InetAddress ip2) implements IpsetEntry {
        public IpPortIp {
            require(ip != null && ip2 != null && validPort(port) && protocol > 0 && protocol < 256 && sameFamily(ip, ip2));
        }

        public IpsetType type() {
            return IpsetType.HASH_IP_PORT_IP;
        }

        public String text() {
            return addr(ip) + "," + proto(protocol) + ":" + port + "," + addr(ip2);
        }
    }

    /** A {@code hash:ip,port,net} member (upstream's load-balancer source ranges). */
    record IpPortNet(InetAddress ip, int protocol, int port, InetAddress net, int cidr) implements IpsetEntry {
        public IpPortNet {
            require(ip != null && net != null && validPort(port) && protocol > 0 && protocol < 256 && sameFamily(ip, net)
                    && cidr >= 0 && cidr <= (net instanceof Inet4Address ? 32 : 128));
        }

        public IpsetType type() {
            return IpsetType.HASH_IP_PORT_NET;
        }

        public String text() {
            return addr(ip) + "," + proto(protocol) + ":" + port + "," + addr(net) + "/" + cidr;
        }
    }

    /** A {@code hash:net} member. */
    record Net(InetAddress net, int cidr) implements IpsetEntry {
        public Net {
            require(net != null && cidr >= 0 && cidr <= (net instanceof Inet4Address ? 32 : 128));
        }

        public IpsetType type() {
            return IpsetType.HASH_NET;
        }

        public String text() {
            return addr(net) + "/" + cidr;
        }
    }

    /** A {@code bitmap:port} member. */
    record Port(int port) implements IpsetEntry {
        public Port {
            require(validPort(port));
        }

        public IpsetType type() {
            return IpsetType.BITMAP_PORT;
        }

        public String text() {
            return Integer.toString(port);
        }
    }

    private static void require(boolean ok) {
        if (!ok) {
            throw new IllegalArgumentException("not a valid ipset member (addresses of one family, ports 0..65535, protocol 1..255)");
        }
    }

    private static boolean validPort(int p) {
        return p >= 0 && p <= 65535;
    }

    private static boolean sameFamily(InetAddress a, InetAddress b) {
        return (a instanceof Inet6Address) == (b instanceof Inet6Address);
    }

    private static String addr(InetAddress a) {
        return a.getHostAddress();
    }

    /** As ipset names protocols: tcp, udp, sctp, or the number. */
    private static String proto(int p) {
        return switch (p) {
            case 6 -> "tcp";
            case 17 -> "udp";
            case 132 -> "sctp";
            default -> Integer.toString(p);
        };
    }
}
