package io.kproxy.bench.journal;

import io.kproxy.events.Envelope;
import io.kproxy.events.EventType;
import io.kproxy.journal.JournalInspector;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.LogPages;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Warm replay throughput in records per second over a journal of {@link #RECORDS} ~1 KB
 * EndpointSlice observations (in the page cache), through the journal's public API only:
 * {@link #replayDecoded} reads pages of 4,096 with {@code EventLog.read} (frames checked on the
 * benchmark thread, decoded in batches by {@code ReplayDecoder} on it and the shared helper
 * threads), what the engine's state loader and history's fold-forward do; {@link #replayTail}
 * takes the same records from {@code EventLog.tail(0)}, the Flux the engine follows from its
 * snapshot at start (pages of at most 512, the live tail's batch); {@link #replaySmallPages}
 * reads pages of 48, below {@code ReplayDecoder.PARALLEL_MIN}, so every record is decoded on the
 * benchmark thread: the single-thread baseline; {@link #scanFrames} walks the records checking
 * checksums and reading only type and time ({@code JournalInspector.countByType}), the storage
 * path alone.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class JournalReplayBench {

    static final int RECORDS = 200_000;

    /** Records in the journal; only tests change it (the ops-per-invocation assume {@link #RECORDS}). */
    int records = RECORDS;
    private Path dir;
    private LocalJournal journal;

    @Setup(Level.Trial)
    public void build() {
        dir = BenchJournals.tempDir("replay");
        journal = BenchJournals.fill(dir, records, 0, 0, new BenchJournals.SteppingClock(Instant.parse("2025-06-03T00:00:00Z")));
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public long replayDecoded(Blackhole bh) {
        return readInPages(4096, bh);
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public long replaySmallPages(Blackhole bh) {
        return readInPages(48, bh);
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public long replayTail(Blackhole bh) {
        Long n = journal.tail(0).take(journal.nextOffset()).doOnNext(bh::consume).count().block();
        return n == null ? 0 : n;
    }

    private long readInPages(int page, Blackhole bh) {
        LogPages pages = LogPages.refusing(journal, 0, journal.nextOffset() - 1, page);
        while (pages.hasNext()) {
            for (Envelope e : pages.next()) {
                bh.consume(e);
            }
        }
        return pages.position();
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public Map<EventType, Long> scanFrames() {
        return JournalInspector.of(journal).countByType(Instant.MIN, Instant.MAX);
    }

    @TearDown(Level.Trial)
    public void close() {
        journal.close();
        BenchJournals.delete(dir);
    }
}
