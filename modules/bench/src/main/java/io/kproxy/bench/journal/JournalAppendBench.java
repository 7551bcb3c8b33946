package io.kproxy.bench.journal;

import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.spi.EventLog.Draft;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Durable appends per second with group commit, and the commit latency of each append (submit to
 * durable acknowledgement). The producer thread(s) ({@code -t}) keep up to {@code inFlight} appends
 * of ~1 KB EndpointSlice observations outstanding, as the kube source does; an operation is one append,
 * so in steady state the score is acknowledged appends per second. The latency distribution is
 * printed after each iteration ({@code commit latency: ...}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class JournalAppendBench {

    @Param({"1"})
    public int fsyncWindowMs;

    @Param({"64", "256"})
    public int inFlight;

    private Path dir;
    private LocalJournal journal;
    private List<Draft> pool;
    private Semaphore permits;
    private final LatencyRecorder latency = new LatencyRecorder();
    private final AtomicLong failures = new AtomicLong();
    private int iteration;

    @Setup(Level.Trial)
    public void open() {
        dir = BenchJournals.tempDir("append");
        journal = LocalJournal.open(JournalOptions.defaults(dir).withFsyncWindow(Duration.ofMillis(fsyncWindowMs)));
        pool = BenchJournals.pool(7);
        permits = new Semaphore(inFlight);
    }

    @Setup(Level.Iteration)
    public void resetLatency() {
        latency.reset();
    }

    /** Each producer thread's position in the pool (run with {@code -t 2} for two producers sharing the in-flight budget). */
    @State(Scope.Thread)
    public static class Producer {
        int next;
    }

    @Benchmark
    public void appendDurable(Producer producer) throws InterruptedException {
        permits.acquire();
        long t0 = System.nanoTime();
        journal.append(List.of(pool.get(producer.next++ & (BenchJournals.POOL - 1)))).whenComplete((offsets, error) -> {
            latency.record(System.nanoTime() - t0);
            if (error != null) {
                failures.incrementAndGet();
            }
            permits.release();
        });
    }

    @TearDown(Level.Iteration)
    public void drainAndReport() throws InterruptedException {
        permits.acquire(inFlight); // every append of this iteration is durable (or failed) before the next starts
        permits.release(inFlight);
        System.out.printf("%n  iteration %d commit latency: %s failures=%d%n", ++iteration, latency.summary(), failures.get());
    }

    @TearDown(Level.Trial)
    public void close() {
        journal.close();
        BenchJournals.delete(dir);
        if (failures.get() > 0) {
            throw new IllegalStateException(failures.get() + " appends failed");
        }
    }
}
