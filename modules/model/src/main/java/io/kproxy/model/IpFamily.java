package io.kproxy.model;

/** The two IP families, with the spelling the Kubernetes API uses ({@code IPv4}, {@code IPv6}). */
public enum IpFamily {
    IPV4("IPv4", 32),
    IPV6("IPv6", 128);

    private final String apiName;
    private final int bits;

    IpFamily(String apiName, int bits) {
        this.apiName = apiName;
        this.bits = bits;
    }

    /** {@code IPv4} or {@code IPv6}, as in {@code spec.ipFamilies} and {@code addressType}. */
    public String apiName() {
        return apiName;
    }

    /** Address length in bits: 32 or 128. */
    public int bits() {
        return bits;
    }

    /** Parses the API spelling; anything else is refused with the field named. */
    public static IpFamily parse(String field, String text) {
        for (IpFamily f : values()) {
            if (f.apiName.equals(text)) {
                return f;
            }
        }
        throw new InvalidValueException(field, text, "expected IPv4 or IPv6");
    }
}
