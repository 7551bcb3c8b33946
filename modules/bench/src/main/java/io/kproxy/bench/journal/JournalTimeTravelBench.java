package io.kproxy.bench.journal;

import io.kproxy.events.Envelope;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.LogPages;
import io.kproxy.journal.spi.Snapshot;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Time travel over a journal of 1,000,000 ~1 KB EndpointSlice observations (10,000 s of history,
 * 100 records per second) with a 2 MiB snapshot every 10,000 records:
 * <ul>
 *   <li>{@link #offsetAt}: the first offset at or after a random time (the sparse time index);</li>
 *   <li>{@link #loadStateAt}: what rebuilding the state at a random time costs the journal:
 *       offset lookup, the newest snapshot at or before it (read and checked), and reading and
 *       decoding the records after the snapshot up to that time;</li>
 *   <li>{@link #loadStateWorstCase}: the same for the time just before the next snapshot, so a
 *       whole snapshot interval (9,999 records) is replayed.</li>
 * </ul>
 * The fold of those records into state is not part of it: it is measured with the fold.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class JournalTimeTravelBench {

    int records = 1_000_000;
    int snapshotEvery = 10_000;
    int snapshotBytes = 2 << 20;
    private Path dir;
    private LocalJournal journal;
    private Instant first;
    private long spanMillis;
    private final SplittableRandom rnd = new SplittableRandom(5);

    @Setup(Level.Trial)
    public void build() {
        dir = BenchJournals.tempDir("timetravel");
        journal = BenchJournals.fill(dir, records, snapshotEvery, snapshotBytes,
                new BenchJournals.SteppingClock(Instant.parse("2025-06-03T00:00:00Z")));
        first = journal.read(0, 1).getFirst().recordedAt();
        Instant last = journal.read(journal.nextOffset() - 1, 1).getFirst().recordedAt();
        spanMillis = last.toEpochMilli() - first.toEpochMilli();
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public OptionalLong offsetAt() {
        return journal.offsetAt(first.plusMillis(rnd.nextLong(spanMillis)));
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public long loadStateAt(Blackhole bh) {
        Instant t = first.plusMillis(rnd.nextLong(spanMillis));
        long upto = journal.offsetAt(t).orElse(journal.nextOffset()) - 1; // the state at t: every record before t
        return load(upto, bh);
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public long loadStateWorstCase(Blackhole bh) {
        long k = 1 + rnd.nextLong(records / snapshotEvery - 1);
        return load(k * snapshotEvery + snapshotEvery - 2L, bh); // snapshot at k*every-1, then every-1 records
    }

    /** Snapshot at or before {@code upto}, then the records after it up to {@code upto}; returns how many were replayed. */
    long load(long upto, Blackhole bh) {
        long from = 0;
        Snapshot s = journal.snapshotAtOrBefore(upto).orElse(null);
        if (s != null) {
            bh.consume(s.data());
            from = s.offset() + 1;
        }
        long replayed = 0;
        LogPages pages = LogPages.refusing(journal, from, upto, 4096);
        while (pages.hasNext()) {
            List<Envelope> batch = pages.next();
            for (Envelope e : batch) {
                bh.consume(e);
            }
            replayed += batch.size();
        }
        return replayed;
    }

    @TearDown(Level.Trial)
    public void close() {
        journal.close();
        BenchJournals.delete(dir);
    }
}
