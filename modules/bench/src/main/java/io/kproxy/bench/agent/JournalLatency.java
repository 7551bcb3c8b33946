package io.kproxy.bench.agent;

import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.Envelope;
import io.kproxy.events.SyncApplied;
import io.kproxy.journal.LocalJournal;
import io.kproxy.state.FoldedState;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What an agent's journal says about a benchmark run, read after the agent stopped: when the
 * first sync was recorded (cold start), and for every EndpointSlice change made after
 * {@code changesFrom}, the time from its {@code last-change-trigger-time} to the
 * {@code SyncApplied} that first covered it (network programming latency, as upstream defines it,
 * on the same host clock). Also the folded state at the first sync, for the floor.
 */
record JournalLatency(Instant firstSync, FoldedState stateAtFirstSync, List<Duration> latencies, int syncs) {

    private static final String TRIGGER = "endpoints.kubernetes.io/last-change-trigger-time";

    static JournalLatency read(Path dir, Instant changesFrom) {
        try (LocalJournal journal = LocalJournal.openReadOnly(dir)) {
            List<Envelope> all = new ArrayList<>();
            for (long next = journal.firstOffset(); next < journal.nextOffset(); ) {
                List<Envelope> page = journal.read(next, 4096);
                if (page.isEmpty()) {
                    break;
                }
                all.addAll(page);
                next = page.getLast().offset() + 1;
            }
            List<Envelope> syncs = all.stream().filter(e -> e.event() instanceof SyncApplied).toList();
            if (syncs.isEmpty()) {
                throw new IllegalStateException("the agent recorded no SyncApplied in " + dir);
            }
            Envelope first = syncs.getFirst();
            long firstUpto = ((SyncApplied) first.event()).uptoOffset();
            FoldedState state = FoldedState.initial();
            for (Envelope e : all) {
                if (e.offset() > firstUpto) {
                    break;
                }
                state = state.apply(e).state();
            }
            List<Duration> latencies = new ArrayList<>();
            for (Envelope e : all) {
                if (!(e.event() instanceof EndpointSliceObserved s)) {
                    continue;
                }
                Optional<Instant> trigger = s.object().object("metadata").object("annotations").string(TRIGGER)
                        .map(t -> OffsetDateTime.parse(t).toInstant());
                if (trigger.isEmpty() || trigger.get().isBefore(changesFrom)) {
                    continue;
                }
                syncs.stream().filter(a -> ((SyncApplied) a.event()).uptoOffset() >= e.offset()).findFirst()
                        .ifPresent(a -> latencies.add(Duration.between(trigger.get(), a.recordedAt())));
            }
            return new JournalLatency(first.recordedAt(), state, latencies, syncs.size());
        }
    }
}
