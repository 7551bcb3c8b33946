package io.kproxy.admin;

import io.kproxy.config.ConfigException;
import io.kproxy.config.loader.ConfigText;
import io.kproxy.model.Json;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One request to the admin endpoint: one JSON object on one line ({@code docs/operations.md}).
 *
 * <pre>
 * {"op":"pin","toTime":"2026-11-22T03:12:07Z","reason":"bad rollout"}   rollback to a time
 * {"op":"pin","toOffset":1234,"reason":""}                              rollback to an offset
 * {"op":"unpin","reason":"fixed"}                                       resume
 * {"op":"status"}
 * </pre>
 *
 * A line is at most {@link io.kproxy.listen.Limits#ADMIN}'s request size (16 KiB). Immutable; no
 * null components.
 */
public sealed interface AdminRequest permits AdminRequest.PinToTime, AdminRequest.PinToOffset, AdminRequest.Unpin, AdminRequest.Status {

    record PinToTime(Instant time, String reason) implements AdminRequest {
        public PinToTime {
            if (time == null || reason == null) {
                throw new IllegalArgumentException("time and reason are required");
            }
        }
    }

    record PinToOffset(long offset, String reason) implements AdminRequest {
        public PinToOffset {
            if (reason == null) {
                throw new IllegalArgumentException("reason is required");
            }
        }
    }

    record Unpin(String reason) implements AdminRequest {
        public Unpin {
            if (reason == null) {
                throw new IllegalArgumentException("reason is required");
            }
        }
    }

    record Status() implements AdminRequest {
    }

    /** A line that is not a request; the message says why. */
    final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;

        public Malformed(String message) {
            super(message);
        }
    }

    /** The request as one line of JSON (without the newline). */
    static String encode(AdminRequest r) {
        Map<String, Json> m = new LinkedHashMap<>();
        switch (r) {
            case PinToTime p -> {
                m.put("op", Json.of("pin"));
                m.put("toTime", Json.of(p.time().toString()));
                m.put("reason", Json.of(p.reason()));
            }
            case PinToOffset p -> {
                m.put("op", Json.of("pin"));
                m.put("toOffset", Json.of(p.offset()));
                m.put("reason", Json.of(p.reason()));
            }
            case Unpin u -> {
                m.put("op", Json.of("unpin"));
                m.put("reason", Json.of(u.reason()));
            }
            case Status s -> m.put("op", Json.of("status"));
        }
        return ConfigText.toJson(new Json.Obj(m));
    }

    private static boolean isControl(int c) {
        return Character.isISOControl(c) || c == '\u2028' || c == '\u2029' || Character.getType(c) == Character.FORMAT;
    }

    /** Parses one request line. */
    static AdminRequest decode(String line) throws Malformed {
        Json json;
        try {
            json = ConfigText.parse(line);
        } catch (ConfigException | IllegalArgumentException e) {
            throw new Malformed("not JSON: " + e.getMessage());
        }
        if (!(json instanceof Json.Obj o)) {
            throw new Malformed("a request is a JSON object");
        }
        String op = o.string("op").orElseThrow(() -> new Malformed("\"op\" (pin, unpin or status) is required"));
        String reason = o.string("reason").orElse("");
        if (reason.length() > 1024) {
            throw new Malformed("\"reason\" is longer than 1024 characters");
        }
        if (reason.chars().anyMatch(AdminRequest::isControl)) {
            // It is journaled and printed by status and audit: no line breaks or terminal escapes (issue 18).
            throw new Malformed("\"reason\" must not contain control characters (line breaks, tabs, escapes)");
        }
        List<String> allowed = new ArrayList<>(List.of("op"));
        AdminRequest r = switch (op) {
            case "pin" -> {
                allowed.addAll(List.of("toTime", "toOffset", "reason"));
                boolean time = o.field("toTime").isPresent();
                boolean offset = o.field("toOffset").isPresent();
                if (time == offset) {
                    throw new Malformed("pin needs exactly one of \"toTime\" and \"toOffset\"");
                }
                if (time) {
                    String t = o.string("toTime").orElseThrow(() -> new Malformed("\"toTime\" is an RFC 3339 time string"));
                    try {
                        yield new PinToTime(Instant.parse(t), reason);
                    } catch (DateTimeException e) {
                        throw new Malformed("\"toTime\" is not an RFC 3339 time in UTC: " + t);
                    }
                }
                long n = o.integer("toOffset").orElseThrow(() -> new Malformed("\"toOffset\" is an integer"));
                if (n < 0) {
                    throw new Malformed("\"toOffset\" must not be negative");
                }
                yield new PinToOffset(n, reason);
            }
            case "unpin" -> {
                allowed.add("reason");
                yield new Unpin(reason);
            }
            case "status" -> new Status();
            default -> throw new Malformed("unknown op \"" + op + "\" (pin, unpin or status)");
        };
        for (String key : o.fields().keySet()) {
            if (!allowed.contains(key)) {
                throw new Malformed("unknown field \"" + key + "\" for op " + op);
            }
        }
        return r;
    }
}
