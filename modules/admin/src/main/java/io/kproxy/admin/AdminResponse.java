package io.kproxy.admin;

import io.kproxy.config.ConfigException;
import io.kproxy.config.loader.ConfigText;
import io.kproxy.engine.ControlAnswer;
import io.kproxy.engine.DataplaneStatus;
import io.kproxy.model.Json;
import io.kproxy.model.Printable;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The admin endpoint's answer: one JSON object on one line.
 *
 * <pre>
 * {"outcome":"done","message":"dataplane pinned to ...","status":{...}}
 * {"outcome":"refused","code":"before-journal","message":"time ... is before the journal's first record ..."}
 * {"outcome":"failed","message":"...; but programming it failed ...","status":{...}}
 * {"outcome":"bad-request","message":"unknown op \"x\" ..."}
 * {"outcome":"forbidden","message":"only root or processes whose effective group is ..."}
 * </pre>
 *
 * {@code status}: {@code pinned}, and while pinned {@code toOffset}, {@code toTime},
 * {@code pinnedAt}, {@code pinnedTime}, {@code reason}; always {@code liveOffset},
 * {@code firstOffset}, {@code firstTime} and, after a sync, {@code lastSync}
 * ({@code offset}, {@code applied}, {@code generation}, {@code uptoOffset}, {@code kind},
 * {@code detail}). Times are RFC 3339 in UTC. Immutable.
 *
 * @param outcome {@code done}, {@code refused}, {@code failed}, {@code bad-request} or
 *                {@code forbidden} (the peer may not use the socket, {@link AdminAccess})
 * @param code    the refusal's code ({@link ControlAnswer.Refused#code()}), "" otherwise
 * @param message what an operator reads
 * @param status  the dataplane's status, {@link Json.Obj#EMPTY} when the answer has none
 */
public record AdminResponse(String outcome, String code, String message, Json.Obj status) {

    public AdminResponse {
        if (outcome == null || code == null || message == null || status == null) {
            throw new IllegalArgumentException("no component may be null");
        }
    }

    /** The answer to a pin or unpin. */
    public static AdminResponse of(ControlAnswer a) {
        return switch (a) {
            case ControlAnswer.Done d -> new AdminResponse("done", "", d.message(), status(d.status()));
            case ControlAnswer.Refused r -> new AdminResponse("refused", r.code(), r.message(), Json.Obj.EMPTY);
            case ControlAnswer.Failed f -> new AdminResponse("failed", "", f.message(), status(f.status()));
        };
    }

    /** The answer to a status request. */
    public static AdminResponse of(DataplaneStatus s) {
        return new AdminResponse("done", "", s.pin().isPresent() ? "pinned" : "live", status(s));
    }

    public static AdminResponse badRequest(String why) {
        return new AdminResponse("bad-request", "", why, Json.Obj.EMPTY);
    }

    /** The answer to a peer {@link AdminAccess} refuses. */
    public static AdminResponse forbidden(String why) {
        return new AdminResponse("forbidden", "", why, Json.Obj.EMPTY);
    }

    static Json.Obj status(DataplaneStatus s) {
        Map<String, Json> m = new LinkedHashMap<>();
        m.put("pinned", Json.of(s.pin().isPresent()));
        s.pin().ifPresent(p -> {
            m.put("toOffset", Json.of(p.toOffset()));
            p.toTime().ifPresent(t -> m.put("toTime", Json.of(t.toString())));
            m.put("pinnedAt", Json.of(p.pinnedAt()));
            p.pinnedTime().ifPresent(t -> m.put("pinnedTime", Json.of(t.toString())));
            m.put("reason", Json.of(p.reason()));
        });
        m.put("liveOffset", Json.of(s.liveOffset()));
        m.put("firstOffset", Json.of(s.firstOffset()));
        s.firstTime().ifPresent(t -> m.put("firstTime", Json.of(t.toString())));
        s.lastSync().ifPresent(l -> m.put("lastSync", Json.obj("offset", Json.of(l.offset()), "applied", Json.of(l.applied()),
                "generation", Json.of(l.generation()), "uptoOffset", Json.of(l.uptoOffset()), "kind", Json.of(l.kind()),
                "detail", Json.of(l.detail()))));
        return new Json.Obj(m);
    }

    /** One line of JSON (without the newline). */
    public String encode() {
        Map<String, Json> m = new LinkedHashMap<>();
        m.put("outcome", Json.of(outcome));
        if (!code.isEmpty()) {
            m.put("code", Json.of(code));
        }
        m.put("message", Json.of(message));
        if (status.size() > 0) {
            m.put("status", status);
        }
        return ConfigText.toJson(new Json.Obj(m));
    }

    /** Parses an answer line; empty when it is not one (a server of another version, garbage). */
    public static Optional<AdminResponse> decode(String line) {
        try {
            if (!(ConfigText.parse(line) instanceof Json.Obj o) || o.string("outcome").isEmpty() || o.string("message").isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new AdminResponse(o.string("outcome").get(), o.string("code").orElse(""), o.string("message").get(),
                    o.object("status")));
        } catch (ConfigException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** A time of the status, when present and valid. */
    public Optional<Instant> time(String key) {
        try {
            return status.string(key).map(Instant::parse);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The status for a person: what {@code kproxy status} prints. Its text values (a pin's reason,
     * a failed sync's kernel message, times) are the agent's answer and may hold anything: each is
     * one printable line here ({@link Printable#escape}), so none can add a line of its own.
     */
    public String statusText() {
        Json.Obj s = status;
        StringBuilder sb = new StringBuilder();
        if (s.bool("pinned").orElse(false)) {
            sb.append("dataplane: PINNED to offset ").append(s.integer("toOffset").orElse(-1L)).append(s.string("toTime").map(t -> " (state at "
                    + Printable.escape(t) + ")").orElse("")).append(" by the pin at offset ").append(s.integer("pinnedAt").orElse(-1L))
                    .append(s.string("pinnedTime").map(t -> " (" + Printable.escape(t) + ")").orElse(""));
            String reason = Printable.escape(s.string("reason").orElse(""));
            sb.append(reason.isEmpty() ? "" : ": " + reason).append("\n");
            sb.append("           undo with: kproxy resume\n");
        } else {
            sb.append("dataplane: live\n");
        }
        sb.append("journal:   offsets ").append(s.integer("firstOffset").orElse(0L)).append(" to ").append(s.integer("liveOffset").orElse(-1L))
                .append(s.string("firstTime").map(t -> " (first record " + Printable.escape(t) + ")").orElse("")).append("\n");
        Json.Obj last = s.object("lastSync");
        if (last.size() > 0) {
            boolean applied = last.bool("applied").orElse(false);
            sb.append("last sync: generation ").append(last.integer("generation").orElse(0L)).append(' ')
                    .append(Printable.escape(last.string("kind").orElse("?").toLowerCase(Locale.ROOT))).append(applied ? " applied" : " FAILED")
                    .append(", programmed offset ").append(last.integer("uptoOffset").orElse(-1L)).append(", journaled at offset ")
                    .append(last.integer("offset").orElse(-1L)).append(applied ? ", ruleset " : ": ")
                    .append(Printable.escape(last.string("detail").orElse("")))
                    .append("\n");
        } else {
            sb.append("last sync: none yet\n");
        }
        return sb.toString();
    }
}
