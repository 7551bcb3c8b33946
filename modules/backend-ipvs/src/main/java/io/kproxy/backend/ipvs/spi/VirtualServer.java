package io.kproxy.backend.ipvs.spi;

/**
 * An IPVS virtual server as kproxy programs it (upstream's {@code utilipvs.VirtualServer},
 * {@code pkg/proxy/ipvs/util/ipvs.go}). Immutable; no null components.
 *
 * @param key            protocol, address and port
 * @param scheduler      the scheduler name ({@code rr}, {@code wrr}, ...)
 * @param flags          IPVS service flags: {@link #PERSISTENT} for ClientIP affinity,
 *                       {@link #SOURCE_HASH} with the {@code mh} scheduler
 * @param timeoutSeconds the persistence timeout, 0 when not persistent
 */
public record VirtualServer(VsKey key, String scheduler, int flags, int timeoutSeconds) {

    /** {@code IP_VS_SVC_F_PERSISTENT}, upstream's {@code FlagPersistent}. */
    public static final int PERSISTENT = 0x1;
    /** {@code IP_VS_SVC_F_SCHED2} (mh-port), upstream's {@code FlagSourceHash}. */
    public static final int SOURCE_HASH = 0x10;

    public VirtualServer {
        if (key == null || scheduler == null || scheduler.isEmpty()) {
            throw new IllegalArgumentException("key and scheduler are required");
        }
        if (timeoutSeconds < 0 || (timeoutSeconds > 0) != ((flags & PERSISTENT) != 0)) {
            throw new IllegalArgumentException("a timeout is given exactly when the persistent flag is set");
        }
    }

    /**
     * {@code IPVS_SVC_ATTR_NETMASK} as upstream's netlink library sends it: {@code 0xffffffff} (all
     * 32 bits) for IPv4, the prefix length 128 for IPv6.
     */
    public int netmask() {
        return key.address().isIpv6() ? 128 : 0xffffffff;
    }
}
