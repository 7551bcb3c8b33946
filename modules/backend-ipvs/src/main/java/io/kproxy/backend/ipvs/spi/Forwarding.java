package io.kproxy.backend.ipvs.spi;

/** How IPVS forwards to a real server ({@code IP_VS_CONN_F_*}); kproxy only programs {@link #MASQUERADE}. */
public enum Forwarding {
    MASQUERADE,
    TUNNEL,
    ROUTE;

    /** {@code ipvsadm}'s option: {@code -m}, {@code -i}, {@code -g}. */
    public String ipvsadm() {
        return switch (this) {
            case MASQUERADE -> "-m";
            case ROUTE -> "-g";
            case TUNNEL -> "-i";
        };
    }
}
