package io.kproxy.backend.ipvs;

import io.kproxy.backend.ipvs.spi.Destination;
import io.kproxy.backend.ipvs.spi.Forwarding;
import io.kproxy.backend.ipvs.spi.RealServer;
import io.kproxy.backend.ipvs.spi.SetSpec;
import io.kproxy.backend.ipvs.spi.VirtualServer;
import io.kproxy.backend.ipvs.spi.VsKey;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Protocol;
import io.kproxy.netlink.IpsetEntry;
import io.kproxy.netlink.IpsetSpec;
import io.kproxy.netlink.IpsetType;
import io.kproxy.netlink.IpvsDestination;
import io.kproxy.netlink.IpvsForward;
import io.kproxy.netlink.IpvsProtocol;
import io.kproxy.netlink.IpvsService;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * The pure translation between the ipvs backend's kernel port values and {@code io.kproxy.netlink}'s
 * request values, both ways. Set members are read back in the spelling the backend writes them
 * ({@code ipset save}'s, with RFC 5952 IPv6 text and a source range always with its prefix length),
 * else every sync would see them as missing and add them again. Stateless.
 */
final class NetlinkMapping {

    private NetlinkMapping() {
    }

    static InetAddress inet(IpAddress ip) {
        try {
            return InetAddress.getByAddress(ip.toBytes());
        } catch (UnknownHostException e) {
            throw new IllegalStateException("an address of " + ip.toBytes().length + " bytes", e);
        }
    }

    static IpAddress ip(InetAddress a) {
        return IpAddress.ofBytes(a.getAddress());
    }

    /** IPv6 link-local ({@code fe80::/10}): the kernel gives one to every IPv6 link that is up; never a service address. */
    static boolean linkLocal(InetAddress a) {
        return a.isLinkLocalAddress();
    }

    static IpvsProtocol protocol(Protocol p) {
        return switch (p) {
            case TCP -> IpvsProtocol.TCP;
            case UDP -> IpvsProtocol.UDP;
            case SCTP -> IpvsProtocol.SCTP;
        };
    }

    static Protocol protocol(IpvsProtocol p) {
        return switch (p) {
            case TCP -> Protocol.TCP;
            case UDP -> Protocol.UDP;
            case SCTP -> Protocol.SCTP;
        };
    }

    /**
     * A virtual server as the netlink client sends it: one client address per persistence entry
     * (upstream's netlink library sends the netmask {@code 0xffffffff} for IPv4 and 128 for IPv6;
     * the client encodes the prefix length 32 as that mask).
     */
    static IpvsService service(VirtualServer vs) {
        VsKey k = vs.key();
        return new IpvsService(inet(k.address()), protocol(k.protocol()), k.port(), 0, vs.scheduler(), vs.flags(), vs.timeoutSeconds(),
                k.address().isIpv6() ? 128 : 32);
    }

    /** The key of a virtual server for requests that name it only (delete, list destinations); the scheduler is not sent. */
    static IpvsService service(VsKey k) {
        return IpvsService.of(inet(k.address()), protocol(k.protocol()), k.port(), "rr");
    }

    /**
     * A listed virtual service as the port sees it, or empty for one kproxy never programs (a
     * firewall-mark service, port 0, or persistence flags without a timeout).
     */
    static Optional<VirtualServer> virtualServer(IpvsService s) {
        if (s.fwmark() != 0 || s.port() == 0 || s.timeoutSeconds() > 0 != ((s.flags() & VirtualServer.PERSISTENT) != 0)) {
            return Optional.empty();
        }
        return Optional.of(new VirtualServer(new VsKey(protocol(s.protocol()), ip(s.address()), s.port()), s.scheduler(), s.flags(),
                s.timeoutSeconds()));
    }

    static IpvsDestination destination(RealServer rs) {
        IpvsForward f = switch (rs.forwarding()) {
            case MASQUERADE -> IpvsForward.MASQUERADE;
            case TUNNEL -> IpvsForward.TUNNEL;
            case ROUTE -> IpvsForward.DIRECT_ROUTE;
        };
        return new IpvsDestination(inet(rs.address()), rs.port(), f, rs.weight(), 0, 0, 0, 0);
    }

    /**
     * A listed destination. The kernel reports a masquerading destination on one of the node's own
     * addresses as {@code LOCAL} (it delivers locally, ip_vs_ctl.c {@code __ip_vs_update_dest}):
     * still the masquerade kproxy asked for. {@code BYPASS} is never programmed by kproxy; seen as
     * direct routing, it differs from what the plan wants and is replaced.
     */
    static Destination destination(IpvsDestination d) {
        Forwarding f = switch (d.forward()) {
            case MASQUERADE, LOCAL -> Forwarding.MASQUERADE;
            case TUNNEL -> Forwarding.TUNNEL;
            case DIRECT_ROUTE, BYPASS -> Forwarding.ROUTE;
        };
        return new Destination(new RealServer(ip(d.address()), d.port(), d.weight(), f), d.activeConnections(), d.inactiveConnections());
    }

    static IpsetType type(String kernelName) {
        for (IpsetType t : IpsetType.values()) {
            if (t.kernelName().equals(kernelName)) {
                return t;
            }
        }
        throw new IllegalArgumentException("not an ipset type of ipvs mode: " + kernelName);
    }

    /** Upstream's sizes: hashsize 1024 maxelem 65536, bitmap:port over 0-65535 ({@link SetSpec#options()}). */
    static IpsetSpec set(SetSpec s) {
        return s.bitmap() ? IpsetSpec.ports(s.name()) : IpsetSpec.hash(s.name(), type(s.type()), s.family() == IpFamily.IPV6);
    }

    /** The type of one of ipvs mode's sets, by its name in either family, or empty for a set ipvs mode does not own. */
    static Optional<IpsetType> typeOf(String set) {
        for (IpFamily f : IpFamily.values()) {
            for (IpSets s : IpSets.values()) {
                if (s.name(f).equals(set)) {
                    return Optional.of(type(s.spec(f).type()));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * A member in the backend's spelling ({@code ip}, {@code ip,proto:port}, {@code ip,proto:port,ip},
     * {@code ip,proto:port,net/len}, {@code port}) as a netlink member of a set of {@code type}.
     */
    static IpsetEntry entry(IpsetType type, String text) {
        String[] f = text.split(",", -1);
        int want = switch (type) {
            case HASH_IP, HASH_NET, BITMAP_PORT -> 1;
            case HASH_IP_PORT -> 2;
            case HASH_IP_PORT_IP, HASH_IP_PORT_NET -> 3;
        };
        if (f.length != want) {
            throw new IllegalArgumentException("not a " + type.kernelName() + " member: " + text);
        }
        return switch (type) {
            case HASH_IP -> new IpsetEntry.Ip(inet(IpAddress.parse(f[0])));
            case HASH_NET -> {
                String[] n = net(f[0], text);
                yield new IpsetEntry.Net(inet(IpAddress.parse(n[0])), Integer.parseInt(n[1]));
            }
            case BITMAP_PORT -> new IpsetEntry.Port(Integer.parseInt(f[0]));
            case HASH_IP_PORT -> new IpsetEntry.IpPort(inet(IpAddress.parse(f[0])), protocolNumber(f[1], text), port(f[1]));
            case HASH_IP_PORT_IP -> new IpsetEntry.IpPortIp(inet(IpAddress.parse(f[0])), protocolNumber(f[1], text), port(f[1]),
                    inet(IpAddress.parse(f[2])));
            case HASH_IP_PORT_NET -> {
                String[] n = net(f[2], text);
                yield new IpsetEntry.IpPortNet(inet(IpAddress.parse(f[0])), protocolNumber(f[1], text), port(f[1]),
                        inet(IpAddress.parse(n[0])), Integer.parseInt(n[1]));
            }
        };
    }

    /** A listed member in the backend's spelling: the inverse of {@link #entry(IpsetType, String)}. */
    static String text(IpsetEntry e) {
        return switch (e) {
            case IpsetEntry.Ip i -> ip(i.ip()).toString();
            case IpsetEntry.Net n -> ip(n.net()) + "/" + n.cidr();
            case IpsetEntry.Port p -> Integer.toString(p.port());
            case IpsetEntry.IpPort p -> ip(p.ip()) + "," + protocolName(p.protocol()) + ":" + p.port();
            case IpsetEntry.IpPortIp p -> ip(p.ip()) + "," + protocolName(p.protocol()) + ":" + p.port() + "," + ip(p.ip2());
            case IpsetEntry.IpPortNet p -> ip(p.ip()) + "," + protocolName(p.protocol()) + ":" + p.port() + "," + ip(p.net()) + "/" + p.cidr();
        };
    }

    private static String[] net(String field, String text) {
        String[] n = field.split("/", -1);
        if (n.length != 2) {
            throw new IllegalArgumentException("a range needs its prefix length: " + text);
        }
        return n;
    }

    private static int protocolNumber(String protoPort, String text) {
        int colon = protoPort.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("no proto:port in " + text);
        }
        return switch (protoPort.substring(0, colon)) {
            case "tcp" -> 6;
            case "udp" -> 17;
            case "sctp" -> 132;
            default -> throw new IllegalArgumentException("not a protocol of ipvs mode's sets: " + text);
        };
    }

    private static int port(String protoPort) {
        return Integer.parseInt(protoPort.substring(protoPort.indexOf(':') + 1));
    }

    private static String protocolName(int number) {
        return switch (number) {
            case 6 -> "tcp";
            case 17 -> "udp";
            case 132 -> "sctp";
            default -> Integer.toString(number);
        };
    }
}
