package io.kproxy.model;

/**
 * An IPv4 or IPv6 address, held as 128 bits ({@code high}, {@code low}); an IPv4 address uses the
 * low 32 bits of {@code low} and zero elsewhere.
 *
 * <p>{@link #parse} follows kube-proxy's {@code netutils.ParseIPSloppy} (k8s.io/utils/net, a fork
 * of Go 1.16's {@code net.ParseIP}): IPv4 octets may carry leading zeros and are read as decimal
 * ({@code 172.30.0.041} is {@code 172.30.0.41}), and an IPv4-mapped IPv6 address
 * ({@code ::ffff:1.2.3.4}) is the IPv4 address, as Go's {@code To4()} treats it.
 * {@link #toString} prints the canonical text Go prints (RFC 5952 for IPv6), which is what rules
 * are written with.
 */
public record IpAddress(IpFamily family, long high, long low) implements Comparable<IpAddress> {

    public IpAddress {
        if (family == null) {
            throw new InvalidValueException("ip", "null", "family is required");
        }
        if (family == IpFamily.IPV4 && (high != 0 || (low >>> 32) != 0)) {
            throw new InvalidValueException("ip", Long.toHexString(low), "IPv4 address wider than 32 bits");
        }
        if (family == IpFamily.IPV6 && isMapped(high, low)) {
            // Go's net.IP treats ::ffff:a.b.c.d and a.b.c.d as one address; so do we, with one representation.
            throw new InvalidValueException("ip", "::ffff:" + ofV4((int) low), "an IPv4-mapped IPv6 address is the IPv4 address: use IPv4");
        }
    }

    /** Parses an address, naming {@code field} in the error. */
    public static IpAddress parse(String field, String text) {
        if (text == null || text.isEmpty()) {
            throw new InvalidValueException(field, "", "empty IP address");
        }
        IpAddress ip = text.indexOf(':') >= 0 ? parseV6(text) : parseV4(text, 0, text.length());
        if (ip == null) {
            throw new InvalidValueException(field, text, "not an IPv4 or IPv6 address");
        }
        return ip;
    }

    /** Parses an address; the error names the field {@code ip}. */
    public static IpAddress parse(String text) {
        return parse("ip", text);
    }

    /** An IPv4 address from its 32 bits. */
    public static IpAddress ofV4(int bits) {
        return new IpAddress(IpFamily.IPV4, 0, bits & 0xFFFFFFFFL);
    }

    /** An address from its 128 bits: IPv6, or IPv4 when they are an IPv4-mapped address ({@code ::ffff:a.b.c.d}). */
    public static IpAddress ofV6(long high, long low) {
        return v6OrMapped(high, low);
    }

    /** From network-order bytes: 4 for IPv4, 16 for IPv6 (IPv4-mapped IPv6 becomes IPv4). */
    public static IpAddress ofBytes(byte[] bytes) {
        if (bytes.length == 4) {
            return ofV4(((bytes[0] & 0xFF) << 24) | ((bytes[1] & 0xFF) << 16) | ((bytes[2] & 0xFF) << 8) | (bytes[3] & 0xFF));
        }
        if (bytes.length == 16) {
            long h = 0;
            long l = 0;
            for (int i = 0; i < 8; i++) {
                h = (h << 8) | (bytes[i] & 0xFF);
                l = (l << 8) | (bytes[i + 8] & 0xFF);
            }
            return v6OrMapped(h, l);
        }
        throw new InvalidValueException("ip", bytes.length + " bytes", "an address has 4 or 16 bytes");
    }

    /** Network-order bytes: 4 for IPv4, 16 for IPv6. */
    public byte[] toBytes() {
        if (family == IpFamily.IPV4) {
            return new byte[] {(byte) (low >>> 24), (byte) (low >>> 16), (byte) (low >>> 8), (byte) low};
        }
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (high >>> (56 - 8 * i));
            b[i + 8] = (byte) (low >>> (56 - 8 * i));
        }
        return b;
    }

    public boolean isIpv4() {
        return family == IpFamily.IPV4;
    }

    public boolean isIpv6() {
        return family == IpFamily.IPV6;
    }

    /** {@code 127.0.0.0/8} or {@code ::1}. */
    public boolean isLoopback() {
        return family == IpFamily.IPV4 ? (low >>> 24) == 127 : high == 0 && low == 1;
    }

    /** {@code 0.0.0.0} or {@code ::}. */
    public boolean isUnspecified() {
        return high == 0 && low == 0;
    }

    @Override
    public int compareTo(IpAddress o) {
        int c = family.compareTo(o.family);
        if (c != 0) {
            return c;
        }
        c = Long.compareUnsigned(high, o.high);
        return c != 0 ? c : Long.compareUnsigned(low, o.low);
    }

    /** Canonical text: dotted quad, or RFC 5952 IPv6 (lower case, longest zero run as {@code ::}). */
    @Override
    public String toString() {
        if (family == IpFamily.IPV4) {
            return (low >>> 24) + "." + ((low >>> 16) & 0xFF) + "." + ((low >>> 8) & 0xFF) + "." + (low & 0xFF);
        }
        int[] groups = new int[8];
        for (int i = 0; i < 4; i++) {
            groups[i] = (int) ((high >>> (48 - 16 * i)) & 0xFFFF);
            groups[i + 4] = (int) ((low >>> (48 - 16 * i)) & 0xFFFF);
        }
        int bestStart = -1;
        int bestLen = 0;
        for (int i = 0; i < 8; ) {
            if (groups[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLen && j - i >= 2) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(groups[i]));
        }
        return sb.toString();
    }

    // ---- parsing ----------------------------------------------------------------------------

    /** Dotted quad in text[from, to); octets are decimal, leading zeros allowed, each at most 255. */
    private static IpAddress parseV4(String text, int from, int to) {
        long value = 0;
        int octets = 0;
        int i = from;
        while (octets < 4) {
            if (octets > 0) {
                if (i >= to || text.charAt(i) != '.') {
                    return null;
                }
                i++;
            }
            int start = i;
            int n = 0;
            while (i < to && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
                n = n * 10 + (text.charAt(i) - '0');
                if (n > 255) {
                    return null;
                }
                i++;
            }
            if (i == start) {
                return null;
            }
            value = (value << 8) | n;
            octets++;
        }
        return i == to ? ofV4((int) value) : null;
    }

    private static IpAddress parseV6(String text) {
        int[] groups = new int[8];
        int n = 0;
        int ellipsis = -1;
        int i = 0;
        int len = text.length();
        if (text.startsWith("::")) {
            ellipsis = 0;
            i = 2;
            if (i == len) {
                return new IpAddress(IpFamily.IPV6, 0, 0);
            }
        }
        while (i < len) {
            int start = i;
            int v = 0;
            while (i < len && hex(text.charAt(i)) >= 0) {
                v = (v << 4) | hex(text.charAt(i));
                i++;
            }
            if (i == start) {
                return null;
            }
            if (i < len && text.charAt(i) == '.') {
                // Embedded IPv4 in the last 32 bits. Its first octet may be zero-padded past four
                // digits ("::ffff:00192.168.0.5"): ParseIPSloppy strips the zeros before Go parses.
                if (ellipsis < 0 && n != 6 || n > 6) {
                    return null;
                }
                IpAddress v4 = parseV4(text, start, len);
                if (v4 == null) {
                    return null;
                }
                groups[n++] = (int) (v4.low >>> 16);
                groups[n++] = (int) (v4.low & 0xFFFF);
                i = len;
                break;
            }
            if (i - start > 4) {
                return null; // at most four hex digits per group (Go's netip.ParseAddr)
            }
            groups[n++] = v;
            if (i == len) {
                break;
            }
            if (text.charAt(i) != ':' || i + 1 == len) {
                return null;
            }
            i++;
            if (text.charAt(i) == ':') {
                if (ellipsis >= 0) {
                    return null;
                }
                ellipsis = n;
                i++;
                if (i == len) {
                    break;
                }
            }
            if (n >= 8) {
                return null;
            }
        }
        if (ellipsis >= 0) {
            if (n >= 8) {
                return null;
            }
            int shift = 8 - n;
            for (int k = n - 1; k >= ellipsis; k--) {
                groups[k + shift] = groups[k];
            }
            for (int k = ellipsis; k < ellipsis + shift; k++) {
                groups[k] = 0;
            }
        } else if (n != 8) {
            return null;
        }
        long h = 0;
        long l = 0;
        for (int k = 0; k < 4; k++) {
            h = (h << 16) | groups[k];
            l = (l << 16) | groups[k + 4];
        }
        return v6OrMapped(h, l);
    }

    private static IpAddress v6OrMapped(long h, long l) {
        return isMapped(h, l) ? ofV4((int) l) : new IpAddress(IpFamily.IPV6, h, l);
    }

    private static boolean isMapped(long h, long l) {
        return h == 0 && (l >>> 32) == 0xFFFFL;
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
