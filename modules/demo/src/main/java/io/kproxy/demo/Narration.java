package io.kproxy.demo;

import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SourceSynced;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Which replayed records are worth a timeline line, and the line: the configuration, the first
 * sync barrier of each kind, relists, long silences (an API server outage looks like one), and
 * every change of the probed Service's rules. Everything else only moves the progress bar.
 * Confined to the replay thread.
 */
final class Narration {

    /** A silence at least this long between two records is told. */
    static final Duration GAP = Duration.ofSeconds(60);

    private final Map<Integer, History.Change> changes = new HashMap<>();
    private final Set<ResourceKind> synced = EnumSet.noneOf(ResourceKind.class);
    private final Optional<History.Episode> predictedBreak;
    private final String goodPorts;
    private Envelope previous;
    private boolean healedTold;

    Narration(History h) {
        h.changes().forEach(c -> changes.put(c.index(), c));
        this.predictedBreak = h.predictedBreak();
        this.goodPorts = String.join(", ", h.target().goodPorts().stream().map(String::valueOf).toList());
    }

    /**
     * The line for the replay's {@code index}-th record {@code r}, if it is notable; a silence
     * before it is told first.
     *
     * @param offset where the record landed in the demo's journal (asked only for notable records)
     */
    void tell(int index, Envelope r, LongSupplier offset, Console out) {
        if (previous != null && Duration.between(previous.recordedAt(), r.recordedAt()).compareTo(GAP) >= 0) {
            Duration gap = Duration.between(previous.recordedAt(), r.recordedAt());
            out.event(previous.recordedAt(), "-- no records for " + human(gap) + " (the source heard nothing: an API server outage?)");
        }
        previous = r;
        line(index, r).ifPresent(text -> out.event(r.recordedAt(), "#" + offset.getAsLong() + "  " + text));
    }

    private Optional<String> line(int index, Envelope r) {
        History.Change c = changes.get(index);
        if (c != null) {
            String mark = predictedBreak.map(b -> b.start().index() == index ? "   <-- the bad change"
                    : b.broken().index() == index ? "   <-- now no endpoint where the pods listen"
                    : c.healthy() && index > b.broken().index() && !healedTold ? "   <-- all on port " + goodPorts + " again" : "")
                    .orElse("");
            if (mark.contains(" again")) {
                healedTold = true;
            }
            return Optional.of(r.event().getClass().getSimpleName() + " " + c.summary() + mark);
        }
        if (r.event() instanceof ConfigRecorded e) {
            return Optional.of("ConfigRecorded: the agent starts (node " + e.node().value() + ")");
        }
        if (r.event() instanceof SourceSynced e && synced.add(e.kind())) {
            return Optional.of("SourceSynced " + kind(e.kind()) + ": initial list complete");
        }
        if (r.event() instanceof SourceRelisted e) {
            return Optional.of("SourceRelisted " + kind(e.kind()) + ": relist with " + e.keysPresent().size()
                    + " objects present; what vanished meanwhile is dropped");
        }
        return Optional.empty(); // the rest of the churn only moves the progress bar
    }

    private static String kind(ResourceKind k) {
        return k.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    static String human(Duration d) {
        long s = d.toSeconds();
        return s >= 60 ? (s / 60) + "m" + (s % 60 == 0 ? "" : (s % 60) + "s") : s + "s";
    }
}
