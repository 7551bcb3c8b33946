package io.kproxy.config;

import io.kproxy.model.Cidr;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.IpAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * Value checks shared by the validation rules, each a port of the upstream helper it names. Each
 * adds {@link FieldError}s to the list it is given. Stateless.
 */
final class Checks {

    /** resource.Quantity: signed decimal with an optional binary-SI, decimal-SI or exponent suffix. */
    private static final Pattern QUANTITY = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+|[KMGTPE]i|[numkMGTPE])?");

    private Checks() {
    }

    static void range(List<FieldError> errs, String path, long value, long min, long max) {
        if (value < min || value > max) {
            errs.add(new FieldError(path, Long.toString(value), "must be within the range [" + min + ", " + max + "]"));
        }
    }

    static void nonNegative(List<FieldError> errs, String path, long value) {
        if (value < 0) {
            errs.add(new FieldError(path, Long.toString(value), "must be greater than or equal to 0"));
        }
    }

    static void nonNegative(List<FieldError> errs, String path, Duration d) {
        if (d.isNegative()) {
            errs.add(new FieldError(path, GoDuration.format(d), "must be greater than or equal to 0"));
        }
    }

    static void positive(List<FieldError> errs, String path, Duration d) {
        if (d.isNegative() || d.isZero()) {
            errs.add(new FieldError(path, GoDuration.format(d), "must be greater than 0"));
        }
    }

    /** {@code validateHostPort} of {@code pkg/proxy/apis/config/validation/validation.go}. */
    static Optional<IpAddress> hostPort(List<FieldError> errs, String path, String input) {
        Optional<HostPort> hp = HostPort.split(input);
        if (hp.isEmpty()) {
            errs.add(new FieldError(path, input, "must be IP:port"));
            return Optional.empty();
        }
        Optional<IpAddress> ip = HostPort.ip(hp.get().host());
        if (ip.isEmpty()) {
            errs.add(new FieldError(path, hp.get().host(), "must be a valid IP"));
        }
        if (!validPort(hp.get().port())) {
            errs.add(new FieldError(path, hp.get().port(), "must be a valid port"));
        }
        return ip;
    }

    /** Go {@code strconv.Atoi} between 1 and 65535. */
    static boolean validPort(String port) {
        OptionalLong p = atoi(port);
        return p.isPresent() && p.getAsLong() >= 1 && p.getAsLong() <= 65535;
    }

    /** {@code netutils.ParseCIDRSloppy} (which, unlike {@link Cidr#parse}, does not trim blanks). */
    static Optional<Cidr> cidr(String text) {
        if (!text.equals(text.strip())) {
            return Optional.empty();
        }
        try {
            return Optional.of(Cidr.parse(text));
        } catch (InvalidValueException e) {
            return Optional.empty();
        }
    }

    /** {@code utilnet.ParsePortRange} (apimachinery {@code util/net/port_range.go}): "", "N", "A-B" or "A+N", within 65535. */
    static boolean portRange(String text) {
        String v = text.strip();
        if (v.isEmpty()) {
            return true;
        }
        int hyphen = v.indexOf('-');
        int plus = v.indexOf('+');
        OptionalLong low;
        OptionalLong high;
        if (hyphen < 0 && plus < 0) {
            low = atoi(v);
            high = low;
        } else if (hyphen >= 0 && plus < 0) {
            low = atoi(v.substring(0, hyphen));
            high = atoi(v.substring(hyphen + 1));
        } else if (plus >= 0 && hyphen < 0) {
            low = atoi(v.substring(0, plus));
            OptionalLong offset = atoi(v.substring(plus + 1));
            high = low.isPresent() && offset.isPresent() ? OptionalLong.of(low.getAsLong() + offset.getAsLong()) : OptionalLong.empty();
        } else {
            return false;
        }
        return low.isPresent() && high.isPresent() && low.getAsLong() <= 65535 && high.getAsLong() <= 65535 && high.getAsLong() >= low.getAsLong();
    }

    /** A Kubernetes {@code resource.Quantity} text. */
    static boolean quantity(String text) {
        return QUANTITY.matcher(text).matches();
    }

    /**
     * A Linux interface name or prefix as {@code dev_valid_name} accepts it: 1 to 15 bytes, not
     * "." or "..", no '/', ':' or blank. It ends up in rules ({@code iifname "..."}), so anything
     * else is refused before it can reach a ruleset.
     */
    static boolean interfaceName(String name) {
        if (name.isEmpty() || name.length() > 15 || name.equals(".") || name.equals("..")) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c <= ' ' || c >= 0x7f || c == '/' || c == ':' || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    /** Go {@code strconv.Atoi} for values that fit a long: optional sign, decimal digits only. */
    static OptionalLong atoi(String s) {
        if (s.isEmpty() || s.length() > 18) {
            return OptionalLong.empty();
        }
        int i = s.charAt(0) == '+' || s.charAt(0) == '-' ? 1 : 0;
        if (i == s.length()) {
            return OptionalLong.empty();
        }
        for (int j = i; j < s.length(); j++) {
            if (s.charAt(j) < '0' || s.charAt(j) > '9') {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.of(Long.parseLong(s));
    }
}
