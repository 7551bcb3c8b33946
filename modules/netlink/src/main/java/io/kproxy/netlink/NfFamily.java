package io.kproxy.netlink;

/** The nf_tables table families we program, with their {@code NFPROTO_*} numbers. */
public enum NfFamily {
    IPV4(2),
    IPV6(10);

    private final int proto;

    NfFamily(int proto) {
        this.proto = proto;
    }

    /** {@code NFPROTO_IPV4} or {@code NFPROTO_IPV6}: the {@code nfgenmsg} family and nat's {@code NFTA_NAT_FAMILY}. */
    public int proto() {
        return proto;
    }
}
