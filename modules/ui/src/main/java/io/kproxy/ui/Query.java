package io.kproxy.ui;

import io.kproxy.history.HistoryException;
import io.kproxy.history.Times;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.ServiceRef;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The parameters of one API request, checked: an unknown or repeated parameter, a time that
 * does not parse, a number out of its range or a malformed Service name is a {@link BadRequest}
 * naming the parameter and why. Immutable after parsing.
 */
final class Query {

    private static final int MAX_QUERY = 4096;
    private final Map<String, String> params;

    private Query(Map<String, String> params) {
        this.params = params;
    }

    /** The query of {@code uri}, allowing only the parameter names in {@code allowed}. */
    static Query of(URI uri, Set<String> allowed) {
        String raw = uri.getRawQuery();
        Map<String, String> params = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return new Query(params);
        }
        if (raw.length() > MAX_QUERY) {
            throw new BadRequest("the query is longer than " + MAX_QUERY + " characters");
        }
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name;
            String value;
            try {
                name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new BadRequest("a parameter is not URL-encoded properly: " + e.getMessage());
            }
            if (!allowed.contains(name)) {
                throw new BadRequest("unknown parameter \"" + printable(name) + "\" (this endpoint takes " + String.join(", ", allowed.stream().sorted().toList()) + ")");
            }
            if (params.put(name, value) != null) {
                throw new BadRequest("parameter " + name + " is given twice");
            }
        }
        return new Query(params);
    }

    Optional<String> text(String name) {
        return Optional.ofNullable(params.get(name));
    }

    boolean has(String name) {
        return params.containsKey(name);
    }

    /** A time: RFC 3339 with a zone, {@code now}, a relative {@code -5m}, or epoch milliseconds. */
    Optional<Instant> time(String name, Clock clock) {
        return text(name).map(v -> {
            if (!v.isEmpty() && v.chars().allMatch(Character::isDigit) && v.length() <= 15) {
                return Instant.ofEpochMilli(Long.parseLong(v));
            }
            try {
                return Times.parse(v, clock);
            } catch (HistoryException e) {
                throw new BadRequest(name + ": " + e.getMessage());
            }
        });
    }

    long number(String name, long fallback, long min, long max) {
        Optional<String> v = text(name);
        if (v.isEmpty()) {
            return fallback;
        }
        long n;
        try {
            n = Long.parseLong(v.get());
        } catch (NumberFormatException e) {
            throw new BadRequest(name + ": \"" + printable(v.get()) + "\" is not a whole number");
        }
        if (n < min || n > max) {
            throw new BadRequest(name + ": " + n + " is out of range [" + min + ", " + max + "]");
        }
        return n;
    }

    boolean flag(String name) {
        return switch (text(name).orElse("false")) {
            case "true", "1", "" -> true;
            case "false", "0" -> false;
            default -> throw new BadRequest(name + ": expected true or false");
        };
    }

    Optional<ServiceRef> service(String name) {
        return text(name).map(v -> {
            try {
                return ServiceRef.parse(v);
            } catch (InvalidValueException e) {
                throw new BadRequest(name + ": " + e.getMessage() + " (expected NAMESPACE/NAME, e.g. shop/checkout)");
            }
        });
    }

    ServiceRef requiredService(String name) {
        return service(name).orElseThrow(() -> new BadRequest("parameter " + name + " is required (NAMESPACE/NAME)"));
    }

    /** {@code text} cut to 80 characters with control characters replaced, for an error message. */
    static String printable(String text) {
        StringBuilder b = new StringBuilder();
        text.codePoints().limit(80).forEach(c -> b.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return b.toString();
    }
}
