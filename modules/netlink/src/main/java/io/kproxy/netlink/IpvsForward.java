package io.kproxy.netlink;

/** How IPVS forwards to a real server ({@code IP_VS_CONN_F_*} forwarding methods, include/uapi/linux/ip_vs.h); kube-proxy uses {@link #MASQUERADE}. */
public enum IpvsForward {
    MASQUERADE(0), LOCAL(1), TUNNEL(2), DIRECT_ROUTE(3), BYPASS(4);

    private final int code;

    IpvsForward(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    static IpvsForward of(int code) {
        for (IpvsForward f : values()) {
            if (f.code == code) {
                return f;
            }
        }
        throw new IllegalArgumentException("not an IPVS forwarding method: " + code);
    }
}
