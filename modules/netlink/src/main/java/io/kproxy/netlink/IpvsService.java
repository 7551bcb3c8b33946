package io.kproxy.netlink;

import java.net.Inet4Address;
import java.net.InetAddress;

/**
 * An IPVS virtual service, as the kernel keeps it ({@code IPVS_SVC_ATTR_*},
 * include/uapi/linux/ip_vs.h). A service is identified by family, protocol, address and port, or
 * by family and firewall mark when {@code fwmark} is not 0 (then {@code address} only gives the
 * family and is the family's any-address).
 *
 * @param address the virtual address (IPv4 or IPv6)
 * @param protocol TCP, UDP or SCTP
 * @param port 0..65535
 * @param fwmark 0, or the firewall mark that selects packets instead of address and port
 * @param scheduler the scheduler's name ({@code rr}, {@code wrr}, {@code sh}, …), 1 to 15 characters
 * @param flags {@code IP_VS_SVC_F_*} ({@link #PERSISTENT}, {@link #ONEPACKET}, {@link #SCHED1}…); the
 *     kernel's own {@link #HASHED} is dropped when read back
 * @param timeoutSeconds the persistence timeout (session affinity), 0 when not persistent
 * @param netmaskBits the persistence granularity as a prefix length: 32 (IPv4) or 128 (IPv6) for one client address
 */
public record IpvsService(InetAddress address, IpvsProtocol protocol, int port, int fwmark, String scheduler, int flags, int timeoutSeconds,
        int netmaskBits) {

    public static final int PERSISTENT = 0x1;
    public static final int HASHED = 0x2;
    public static final int ONEPACKET = 0x4;
    public static final int SCHED1 = 0x8;
    public static final int SCHED2 = 0x10;
    public static final int SCHED3 = 0x20;

    public IpvsService {
        if (address == null || protocol == null || scheduler == null) {
            throw new IllegalArgumentException("address, protocol and scheduler are required");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        if (scheduler.isEmpty() || scheduler.length() > 15 || !scheduler.matches("[a-z0-9_]+")) {
            throw new IllegalArgumentException("not a scheduler name: '" + scheduler + "'");
        }
        if (timeoutSeconds < 0) {
            throw new IllegalArgumentException("negative persistence timeout: " + timeoutSeconds);
        }
        if (netmaskBits < 0 || netmaskBits > (address instanceof Inet4Address ? 32 : 128)) {
            throw new IllegalArgumentException("netmask /" + netmaskBits + " does not fit " + address.getHostAddress());
        }
        flags &= ~HASHED;
    }

    /** A service on {@code address:port} with the scheduler, not persistent, one client address per persistence entry. */
    public static IpvsService of(InetAddress address, IpvsProtocol protocol, int port, String scheduler) {
        return new IpvsService(address, protocol, port, 0, scheduler, 0, 0, address instanceof Inet4Address ? 32 : 128);
    }

    /** The same service with session affinity: persistent for {@code seconds}. */
    public IpvsService persistent(int seconds) {
        return new IpvsService(address, protocol, port, fwmark, scheduler, flags | PERSISTENT, seconds, netmaskBits);
    }

    public IpvsService withScheduler(String name, int schedulerFlags) {
        return new IpvsService(address, protocol, port, fwmark, name, schedulerFlags, timeoutSeconds, netmaskBits);
    }

    /** The address family: 2 (AF_INET) or 10 (AF_INET6). */
    public int af() {
        return address instanceof Inet4Address ? 2 : 10;
    }

    /** {@code TCP 10.96.0.10:80} ({@code [fd00::1]:80} for IPv6, {@code FWM 7 IPv4} for a mark), for logs and errors. */
    public String key() {
        if (fwmark != 0) {
            return "FWM " + fwmark + (af() == 2 ? " IPv4" : " IPv6");
        }
        return protocol + " " + IpvsEncoding.hostPort(address, port);
    }
}
