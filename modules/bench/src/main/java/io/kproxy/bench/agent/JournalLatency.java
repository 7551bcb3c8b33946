package io.kproxy.bench.agent;

import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.Envelope;
import io.kproxy.events.SyncApplied;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.LogPages;
import io.kproxy.state.FoldedState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an agent's run says, read after the agent stopped: from its journal, the offset of every
 * EndpointSlice change made after {@code changesFrom} with its {@code last-change-trigger-time}
 * and the state the first sync programmed; from its log, when each sync finished
 * ({@code decision=synced ... upto_offset=N}, written right after the kernel accepted the
 * transaction; the {@code SyncApplied} record follows once the ruleset is hashed). Cold start
 * ends at the first sync; a change's network programming latency (upstream's definition, on the
 * same host clock) runs from its trigger time to the first sync whose offset covers it; its agent
 * share runs from the record's {@code recordedAt} (the journal accepted it) to that sync: what
 * is left is the API server, the watch and the source.
 */
record JournalLatency(Instant firstSync, FoldedState stateAtFirstSync, List<Duration> latencies, List<Duration> agentShares, int syncs) {

    private static final String TRIGGER = "endpoints.kubernetes.io/last-change-trigger-time";
    private static final Pattern SYNCED = Pattern.compile(
            "^(\\S+) level=INFO logger=SyncCycle .*decision=synced .*upto_offset=(\\d+) ");

    /** One finished sync: when, and up to which offset. */
    private record Synced(Instant at, long upto) {
    }

    static JournalLatency read(Path dir, Path agentLog, Instant changesFrom) throws IOException {
        List<Synced> synced = new ArrayList<>();
        for (String line : Files.readAllLines(agentLog)) {
            Matcher m = SYNCED.matcher(line);
            if (m.find()) {
                synced.add(new Synced(OffsetDateTime.parse(m.group(1)).toInstant(), Long.parseLong(m.group(2))));
            }
        }
        if (synced.isEmpty()) {
            throw new IllegalStateException("the agent logged no sync in " + agentLog);
        }
        try (LocalJournal journal = LocalJournal.openReadOnly(dir)) {
            List<Envelope> all = new ArrayList<>();
            LogPages pages = LogPages.refusing(journal, journal.firstOffset(), journal.nextOffset() - 1, 4096);
            while (pages.hasNext()) {
                all.addAll(pages.next());
            }
            long firstUpto = all.stream().filter(e -> e.event() instanceof SyncApplied).map(e -> ((SyncApplied) e.event()).uptoOffset())
                    .findFirst().orElseThrow(() -> new IllegalStateException("the agent recorded no SyncApplied in " + dir));
            FoldedState state = FoldedState.initial();
            for (Envelope e : all) {
                if (e.offset() > firstUpto) {
                    break;
                }
                state = state.apply(e).state();
            }
            List<Duration> latencies = new ArrayList<>();
            List<Duration> shares = new ArrayList<>();
            for (Envelope e : all) {
                if (!(e.event() instanceof EndpointSliceObserved s)) {
                    continue;
                }
                Optional<Instant> trigger = s.object().object("metadata").object("annotations").string(TRIGGER)
                        .map(t -> OffsetDateTime.parse(t).toInstant());
                if (trigger.isEmpty() || trigger.get().isBefore(changesFrom)) {
                    continue;
                }
                synced.stream().filter(s2 -> s2.upto() >= e.offset()).findFirst().ifPresent(s2 -> {
                    latencies.add(Duration.between(trigger.get(), s2.at()));
                    shares.add(Duration.between(e.recordedAt(), s2.at()));
                });
            }
            return new JournalLatency(synced.getFirst().at(), state, latencies, shares, synced.size());
        }
    }
}
