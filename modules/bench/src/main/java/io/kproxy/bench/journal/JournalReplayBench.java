package io.kproxy.bench.journal;

import io.kproxy.events.Envelope;
import io.kproxy.events.EventCodec;
import io.kproxy.events.EventType;
import io.kproxy.events.RawRecord;
import io.kproxy.journal.JournalInspector;
import io.kproxy.journal.LocalJournal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Warm replay throughput in records per second over a journal of {@link #RECORDS} ~1 KB
 * EndpointSlice observations (in the page cache): {@link #replayDecoded} reads every record
 * through {@code EventLog.read} (checksum, then full decoding into an {@code Envelope}, what a
 * fold consumes); {@link #scanFrames} walks the same records checking checksums and reading only
 * type and time ({@code JournalInspector.countByType}), the storage path alone;
 * {@link #replayDecodedParallel} reads the records undecoded in batches of 4,096 and decodes each
 * batch with {@code EventCodec.decodeAll} on the benchmark thread plus {@code threads - 1} pool
 * threads: what replay gains once the journal reads in batches (see {@link RawRecords}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class JournalReplayBench {

    static final int RECORDS = 200_000;

    static final int BATCH = 4096;

    /** Decoding threads of {@link #replayDecodedParallel}, the benchmark thread included. */
    @Param({"2"})
    public int threads;

    /** Records in the journal; only tests change it (the ops-per-invocation assume {@link #RECORDS}). */
    int records = RECORDS;
    private Path dir;
    private LocalJournal journal;
    private ExecutorService pool;
    private RawRecords rawRecords;

    @Setup(Level.Trial)
    public void build() {
        dir = BenchJournals.tempDir("replay");
        journal = BenchJournals.fill(dir, records, 0, 0, new BenchJournals.SteppingClock(Instant.parse("2025-06-03T00:00:00Z")));
        rawRecords = new RawRecords(journal);
        pool = Executors.newFixedThreadPool(Math.max(1, threads - 1), r -> {
            Thread t = new Thread(r, "replay-decoder");
            t.setDaemon(true);
            return t;
        });
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public long replayDecoded(Blackhole bh) {
        long from = 0;
        long end = journal.nextOffset();
        while (from < end) {
            List<Envelope> batch = journal.read(from, 4096);
            for (Envelope e : batch) {
                bh.consume(e);
            }
            from += batch.size();
        }
        return from;
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public long replayDecodedParallel(Blackhole bh) {
        RawRecords raw = rawRecords;
        List<RawRecord> batch = new ArrayList<>(BATCH);
        long from = 0;
        long end = journal.nextOffset();
        while (from < end) {
            long to = Math.min(end, from + BATCH);
            batch.clear();
            raw.read(from, to, batch);
            for (Envelope e : EventCodec.decodeAll(batch, pool, threads)) {
                bh.consume(e);
            }
            from = to;
        }
        return from;
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public Map<EventType, Long> scanFrames() {
        return JournalInspector.of(journal).countByType(Instant.MIN, Instant.MAX);
    }

    @TearDown(Level.Trial)
    public void close() {
        pool.shutdownNow();
        journal.close();
        BenchJournals.delete(dir);
    }
}
