package io.kproxy.ui;

import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.events.Envelope;
import io.kproxy.events.SyncApplied;
import io.kproxy.history.Describe;
import io.kproxy.history.HistoryException;
import io.kproxy.history.Rendering;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.model.ServiceRef;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The JSON API under {@code /api/} (docs/ui.md lists it): every endpoint answers GET only and
 * reads only. Timeline, marks, services and lanes come from the {@link JournalIndex} (bounded by
 * their arguments, whatever the journal's size); moments, rulesets and audits from
 * {@link Moments}. Errors are answered, not thrown: a malformed request is 400 with the reason,
 * a time or record the journal does not hold 404, an answer that needs records the journal lost
 * 422 naming them.
 */
final class Api {

    /** An answer: status and JSON body. */
    record Answer(int status, String json) {
    }

    private static final int MAX_BUCKETS = 2000;
    private static final int MAX_LINES = 20_000;
    private final JournalIndex index;
    private final Moments moments;
    private final Clock clock;
    /** The log's next offset: the index is still catching up while it is behind. */
    private final LongSupplier logEnd;

    Api(JournalIndex index, Moments moments, Clock clock, LongSupplier logEnd) {
        this.index = index;
        this.moments = moments;
        this.clock = clock;
        this.logEnd = logEnd;
    }

    Answer answer(String path, URI uri) {
        try {
            JsonOut out = new JsonOut();
            switch (path) {
                case "/api/summary" -> summary(Query.of(uri, Set.of()), out);
                case "/api/timeline" -> timeline(Query.of(uri, Set.of("from", "to", "buckets")), out);
                case "/api/marks" -> marks(Query.of(uri, Set.of("from", "to", "limit", "gap")), out);
                case "/api/services" -> services(Query.of(uri, Set.of("q", "limit")), out);
                case "/api/lane" -> {
                    if (!lane(Query.of(uri, Set.of("service", "from", "to", "points")), out)) {
                        return error(404, "no record in the journal names that Service");
                    }
                }
                case "/api/moment" -> moment(Query.of(uri, Set.of("at", "record", "mode")), out);
                case "/api/ruleset" -> ruleset(Query.of(uri, Set.of("at", "record", "mode", "explain", "grep", "from", "limit")), out);
                case "/api/audit" -> audit(Query.of(uri, Set.of("service", "since")), out);
                default -> {
                    return error(404, "no such endpoint: " + Query.printable(path));
                }
            }
            return new Answer(200, out.toString());
        } catch (BadRequest e) {
            return error(400, e.getMessage());
        } catch (HistoryException e) {
            return error(switch (e.reason()) {
                case BAD_ARGUMENT -> 400;
                case NOT_IN_JOURNAL -> 404;
                case UNREADABLE -> 422;
            }, e.getMessage());
        } catch (EventLogException e) {
            return error(422, "the journal cannot be read there: " + e.getMessage());
        }
    }

    static Answer error(int status, String reason) {
        return new Answer(status, new JsonOut().beginObject().field("status", status).field("error", reason).endObject().toString());
    }

    private void summary(Query q, JsonOut out) {
        long[] p = index.progress();
        out.beginObject().field("records", p[0]).field("lostRecords", p[1]).field("nextOffset", p[2]).field("services", index.serviceCount())
                .field("indexing", p[2] < logEnd.getAsLong());
        index.firstTime().ifPresent(t -> out.field("first", t));
        index.lastTime().ifPresent(t -> out.field("last", t));
        out.name("warnings").beginArray();
        moments.warnings().forEach(out::value);
        out.endArray();
        out.name("modes").beginArray();
        BackendProvider.all().stream().map(BackendProvider::mode).sorted().forEach(out::value);
        out.endArray().endObject();
    }

    /** {@code [from, to]} as asked, else the whole journal; {@code to} after {@code from}. */
    private long[] range(Query q) {
        long first = index.firstTime().orElse(0);
        long last = index.lastTime().orElse(first) + 1;
        long from = q.time("from", clock).map(Instant::toEpochMilli).orElse(first);
        long to = q.time("to", clock).map(Instant::toEpochMilli).orElse(last);
        if (to <= from) {
            throw new BadRequest("to must be after from");
        }
        return new long[] {from, to};
    }

    private void timeline(Query q, JsonOut out) {
        long[] r = range(q);
        int buckets = (int) q.number("buckets", 300, 1, MAX_BUCKETS);
        index.timeline(r[0], r[1], buckets, out);
    }

    private void marks(Query q, JsonOut out) {
        long[] r = range(q);
        int limit = (int) q.number("limit", 300, 1, 5000);
        long gap = q.number("gap", 120, 1, 86_400) * 1000;
        int[] dropped = {0};
        List<Mark> marks = index.marks(r[0], r[1], gap, limit, dropped);
        out.beginObject().field("dropped", dropped[0]).name("marks").beginArray();
        marks.forEach(m -> m.write(out));
        out.endArray().endObject();
    }

    private void services(Query q, JsonOut out) {
        String query = q.text("q").orElse("");
        if (query.length() > 253) {
            throw new BadRequest("q: longer than a namespace/name can be");
        }
        int limit = (int) q.number("limit", 20, 1, 500);
        out.beginObject().name("services").beginArray();
        index.services(query, limit).forEach(l -> out.beginObject().field("service", l.service).field("records", l.records)
                .field("ready", l.curReady).field("serving", l.curServing).field("terminating", l.curTerminating).endObject());
        out.endArray().endObject();
    }

    private boolean lane(Query q, JsonOut out) {
        ServiceRef s = q.requiredService("service");
        long[] r = range(q);
        return index.lane(s.toString(), r[0], r[1], (int) q.number("points", 500, 2, 5000), out);
    }

    private Moments.Target target(Query q) {
        if (q.has("at") == q.has("record")) {
            throw new BadRequest("give exactly one of at (a time) and record (an offset)");
        }
        if (q.has("record")) {
            return new Moments.AtRecord(q.number("record", 0, 0, Long.MAX_VALUE));
        }
        return new Moments.AtTime(q.time("at", clock).orElseThrow());
    }

    private Optional<String> mode(Query q) {
        Optional<String> mode = q.text("mode").filter(m -> !m.isEmpty());
        if (mode.isPresent() && BackendProvider.all().stream().noneMatch(p -> p.mode().equals(mode.get()))) {
            throw new BadRequest("mode: no installed backend is called \"" + Query.printable(mode.get()) + "\"");
        }
        return mode;
    }

    private void moment(Query q, JsonOut out) {
        Optional<String> mode = mode(q);
        Moments.Resolved m = moments.resolve(target(q));
        // the diff first: it renders the moment last, so the rendering below is History's cached one
        String diff = moments.diff(m, mode);
        Rendering r = moments.render(m.point(), mode);
        out.beginObject().field("point", m.point().describe()).field("offset", m.point().offset()).field("mode", r.mode())
                .field("summary", r.summary());
        m.point().asked().ifPresent(t -> out.field("at", Describe.time(t)));
        m.point().sync().ifPresent(s -> sync(out, "sync", s));
        m.previous().ifPresent(s -> sync(out, "previous", s));
        m.point().sync().flatMap(s -> index.pinInForce(s.offset())).ifPresent(p -> p.write(out.name("pin")));
        out.field("rollback", m.previous().isPresent() && m.point().offset() < ((SyncApplied) m.previous().get().event()).uptoOffset());
        out.field("diff", diff).endObject();
    }

    private static void sync(JsonOut out, String name, Envelope e) {
        SyncApplied s = (SyncApplied) e.event();
        out.name(name).beginObject().field("offset", e.offset()).field("time", Describe.time(e.recordedAt()))
                .field("generation", s.generation()).field("kind", s.kind().name().toLowerCase(Locale.ROOT))
                .field("uptoOffset", s.uptoOffset()).field("durationMs", s.duration().toNanos() / 1e6).endObject();
    }

    private void ruleset(Query q, JsonOut out) {
        Optional<String> mode = mode(q);
        Moments.Resolved m = moments.resolve(target(q));
        Rendering r = moments.render(m.point(), mode);
        String text = q.flag("explain") ? moments.explain(r) : r.text();
        String grep = q.text("grep").orElse("");
        List<String> lines = text.lines().filter(l -> l.contains(grep)).toList();
        int from = (int) q.number("from", 0, 0, Integer.MAX_VALUE);
        int limit = (int) q.number("limit", 2000, 1, MAX_LINES);
        out.beginObject().field("point", m.point().describe()).field("mode", r.mode()).field("summary", r.summary())
                .field("hash", r.hash()).field("lines", lines.size()).field("from", from).name("text").beginArray();
        lines.subList(Math.min(from, lines.size()), Math.min(lines.size(), from + (long) limit > Integer.MAX_VALUE ? lines.size() : from + limit))
                .forEach(out::value);
        out.endArray().endObject();
    }

    private void audit(Query q, JsonOut out) {
        ServiceRef s = q.requiredService("service");
        Optional<Instant> since = q.time("since", clock);
        out.beginObject().field("service", s.toString()).field("text", moments.audit(s, since)).endObject();
    }
}
