package io.kproxy.model;

/**
 * An IP network: a network address with no host bits set, and a prefix length.
 *
 * <p>{@link #parse} follows {@code netutils.ParseCIDRSloppy}: the address part is parsed sloppily
 * (see {@link IpAddress}) and host bits are masked off, as Go's {@code net.ParseCIDR} returns the
 * masked {@code IPNet}. Surrounding blanks are trimmed, as kube-proxy does for
 * {@code loadBalancerSourceRanges}. An IPv4-mapped IPv6 network ({@code ::ffff:1.1.1.0/120})
 * is the IPv4 network ({@code 1.1.1.0/24}), as Go's {@code IPNet.String()} prints it.
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
        String addr = t.substring(0, slash);
        IpAddress ip;
        try {
            ip = IpAddress.parse(field, addr);
        } catch (InvalidValueException e) {
            throw new InvalidValueException(field, t, "not a CIDR: " + e.reason());
        }
        // Go's ParseCIDR sizes the mask by the text's form: an IPv6 text has 128 bits, even when
        // it holds an IPv4-mapped address (which IpAddress has already turned into IPv4).
        int bits = addr.indexOf(':') >= 0 ? 128 : 32;
        int prefix = prefixLength(field, t, t.substring(slash + 1), bits);
        if (bits == 128 && ip.isIpv4()) {
            return mappedNetwork(ip, prefix);
        }
        return new Cidr(mask(ip, prefix), prefix);
    }

    /**
     * Decimal digits, leading zeros allowed (Go's {@code dtoi}, and {@code ParseCIDRSloppy}
     * strips them anyway), at most {@code bits}.
     */
    private static int prefixLength(String field, String text, String len, int bits) {
        if (len.isEmpty() || !len.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new InvalidValueException(field, text, "prefix length is not a number");
        }
        int nonZero = 0;
        while (nonZero < len.length() - 1 && len.charAt(nonZero) == '0') {
            nonZero++;
        }
        String digits = len.substring(nonZero);
        if (digits.length() > 3 || Integer.parseInt(digits) > bits) {
            throw new InvalidValueException(field, text, "prefix length must be at most " + bits);
        }
        return Integer.parseInt(digits);
    }

    /**
     * An IPv4-mapped IPv6 network ({@code ::ffff:a.b.c.d/n}), as Go prints it
     * ({@code src/net/ip.go}: {@code IP.Mask} on the 16-byte form, then
     * {@code networkNumberAndMask}): while the mask keeps the {@code ffff} marker (n >= 96) it is
     * the IPv4 network with {@code n - 96} bits; below that the marker is masked away and an IPv6
     * network remains.
     */
    private static Cidr mappedNetwork(IpAddress v4, int prefix) {
        if (prefix >= 96) {
            return new Cidr(mask(v4, prefix - 96), prefix - 96);
        }
        // Below 96 bits the mask clears the ffff marker, so the result is a plain IPv6 network.
        return new Cidr(mask(IpFamily.IPV6, 0, 0xFFFF_0000_0000L | v4.low(), prefix), prefix);
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
        return mask(ip.family(), ip.high(), ip.low(), prefix);
    }

    private static IpAddress mask(IpFamily family, long high, long low, int prefix) {
        if (family == IpFamily.IPV4) {
            long m = prefix == 0 ? 0 : (0xFFFFFFFFL << (32 - prefix)) & 0xFFFFFFFFL;
            return new IpAddress(IpFamily.IPV4, 0, low & m);
        }
        long mh = prefix == 0 ? 0 : prefix >= 64 ? -1L : -1L << (64 - prefix);
        long ml = prefix <= 64 ? 0 : prefix == 128 ? -1L : -1L << (128 - prefix);
        return new IpAddress(IpFamily.IPV6, high & mh, low & ml);
    }
}
