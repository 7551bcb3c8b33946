package io.kproxy.model;

/**
 * An IP network: a network address with no host bits set, and a prefix length.
 *
 * <p>{@link #parse} follows {@code netutils.ParseCIDRSloppy}: the address part is parsed sloppily
 * (see {@link IpAddress}) and host bits are masked off, as Go's {@code net.ParseCIDR} returns the
 * masked {@code IPNet}. Surrounding blanks are trimmed, as kube-proxy does for
 * {@code loadBalancerSourceRanges}.
 */
public record Cidr(IpAddress network, int prefixLength) implements Comparable<Cidr> {

    public Cidr {
        if (network == null) {
            throw new InvalidValueException("cidr", "null", "network address is required");
        }
        int bits = network.family().bits();
        if (prefixLength < 0 || prefixLength > bits) {
            throw new InvalidValueException("cidr", network + "/" + prefixLength, "prefix length must be between 0 and " + bits);
        }
        if (!mask(network, prefixLength).equals(network)) {
            throw new InvalidValueException("cidr", network + "/" + prefixLength, "host bits are set");
        }
    }

    /** Parses {@code addr/len}, naming {@code field} in the error. */
    public static Cidr parse(String field, String text) {
        String t = text == null ? "" : text.strip();
        int slash = t.indexOf('/');
        if (slash < 0) {
            throw new InvalidValueException(field, t, "not a CIDR (expected address/prefix-length)");
        }
        IpAddress ip;
        try {
            ip = IpAddress.parse(field, t.substring(0, slash));
        } catch (InvalidValueException e) {
            throw new InvalidValueException(field, t, "not a CIDR: " + e.reason());
        }
        String len = t.substring(slash + 1);
        if (len.isEmpty() || len.length() > 3 || !len.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new InvalidValueException(field, t, "prefix length is not a number");
        }
        int prefix = Integer.parseInt(len);
        if (prefix > ip.family().bits()) {
            throw new InvalidValueException(field, t, "prefix length must be at most " + ip.family().bits());
        }
        return new Cidr(mask(ip, prefix), prefix);
    }

    /** Parses {@code addr/len}; the error names the field {@code cidr}. */
    public static Cidr parse(String text) {
        return parse("cidr", text);
    }

    /** The single-address network ({@code /32} or {@code /128}) of {@code ip}. */
    public static Cidr ofAddress(IpAddress ip) {
        return new Cidr(ip, ip.family().bits());
    }

    public IpFamily family() {
        return network.family();
    }

    /** True when {@code ip} is of this family and inside this network. */
    public boolean contains(IpAddress ip) {
        return ip.family() == family() && mask(ip, prefixLength).equals(network);
    }

    /** True for {@code 0.0.0.0/0} and {@code ::/0}. */
    public boolean isZero() {
        return prefixLength == 0;
    }

    @Override
    public int compareTo(Cidr o) {
        int c = network.compareTo(o.network);
        return c != 0 ? c : Integer.compare(prefixLength, o.prefixLength);
    }

    @Override
    public String toString() {
        return network + "/" + prefixLength;
    }

    private static IpAddress mask(IpAddress ip, int prefix) {
        if (ip.family() == IpFamily.IPV4) {
            long m = prefix == 0 ? 0 : (0xFFFFFFFFL << (32 - prefix)) & 0xFFFFFFFFL;
            return new IpAddress(IpFamily.IPV4, 0, ip.low() & m);
        }
        long mh = prefix == 0 ? 0 : prefix >= 64 ? -1L : -1L << (64 - prefix);
        long ml = prefix <= 64 ? 0 : prefix == 128 ? -1L : -1L << (128 - prefix);
        return new IpAddress(IpFamily.IPV6, ip.high() & mh, ip.low() & ml);
    }
}
