package io.kproxy.netlink;

/** The ipset types kube-proxy's ipvs mode creates (upstream {@code pkg/proxy/ipvs/ipset.go}), with the kernel's type names. */
public enum IpsetType {
    HASH_IP("hash:ip"),
    HASH_IP_PORT("hash:ip,port"),
    HASH_IP_PORT_IP("hash:ip,port,ip"),
    HASH_IP_PORT_NET("hash:ip,port,net"),
    HASH_NET("hash:net"),
    BITMAP_PORT("bitmap:port");

    private final String kernelName;

    IpsetType(String kernelName) {
        this.kernelName = kernelName;
    }

    /** The name {@code ipset create} and the kernel use, e.g. {@code hash:ip,port}. */
    public String kernelName() {
        return kernelName;
    }

    static IpsetType of(String kernelName) {
        for (IpsetType t : values()) {
            if (t.kernelName.equals(kernelName)) {
                return t;
            }
        }
        throw new IllegalArgumentException("not an ipset type kproxy uses: " + kernelName);
    }
}
