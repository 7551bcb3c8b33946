package io.kproxy.netlink;

/** The transport protocols IPVS virtual services carry, with their IP protocol numbers. */
public enum IpvsProtocol {
    TCP(6), UDP(17), SCTP(132);

    private final int number;

    IpvsProtocol(int number) {
        this.number = number;
    }

    public int number() {
        return number;
    }

    static IpvsProtocol of(int number) {
        for (IpvsProtocol p : values()) {
            if (p.number == number) {
                return p;
            }
        }
        throw new IllegalArgumentException("not an IPVS protocol: " + number);
    }
}
