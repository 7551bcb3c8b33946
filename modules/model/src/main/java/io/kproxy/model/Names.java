package io.kproxy.model;

/**
 * Kubernetes name rules (apimachinery {@code validation.IsDNS1123Label} and
 * {@code IsDNS1123Subdomain}). Names reach rulesets and file names, so anything outside these
 * alphabets is refused here, before it can inject anything. Pure and thread-safe; every method
 * throws {@link InvalidValueException} naming the field.
 */
public final class Names {

    static final int LABEL_MAX = 63;
    static final int SUBDOMAIN_MAX = 253;

    private Names() {
    }

    /** {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?}, at most 63 characters. */
    public static String label(String field, String value) {
        if (value == null || value.isEmpty()) {
            throw new InvalidValueException(field, "", "must not be empty");
        }
        if (value.length() > LABEL_MAX) {
            throw new InvalidValueException(field, value, "must be at most " + LABEL_MAX + " characters");
        }
        if (!isLabel(value, 0, value.length())) {
            throw new InvalidValueException(field, value,
                    "must consist of lower case alphanumeric characters or '-', and start and end with an alphanumeric character");
        }
        return value;
    }

    /** Dot-separated labels, at most 253 characters. */
    public static String subdomain(String field, String value) {
        if (value == null || value.isEmpty()) {
            throw new InvalidValueException(field, "", "must not be empty");
        }
        if (value.length() > SUBDOMAIN_MAX) {
            throw new InvalidValueException(field, value, "must be at most " + SUBDOMAIN_MAX + " characters");
        }
        int start = 0;
        for (int i = 0; i <= value.length(); i++) {
            if (i == value.length() || value.charAt(i) == '.') {
                if (!isLabel(value, start, i)) {
                    throw new InvalidValueException(field, value,
                            "must consist of lower case alphanumeric characters, '-' or '.', and start and end with an alphanumeric character");
                }
                start = i + 1;
            }
        }
        return value;
    }

    private static boolean isLabel(String s, int from, int to) {
        if (to <= from) {
            return false;
        }
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            boolean alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
            if (!alnum && (c != '-' || i == from || i == to - 1)) {
                return false;
            }
        }
        return true;
    }
}
