package io.kproxy.bench.journal;

import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.spi.EventLog.Draft;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The latency of one durable append while 16 threads append and wait (JMH samples every call and
 * reports the percentiles itself): what a caller that blocks on each acknowledgement sees.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Threads(16)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class JournalCommitLatencyBench {

    private Path dir;
    private LocalJournal journal;
    private List<Draft> pool;
    private final AtomicInteger next = new AtomicInteger();

    @Setup(Level.Trial)
    public void open() {
        dir = BenchJournals.tempDir("latency");
        journal = LocalJournal.open(JournalOptions.defaults(dir).withFsyncWindow(Duration.ofMillis(1)));
        pool = BenchJournals.pool(9);
    }

    @Benchmark
    public List<Long> appendAndWait() {
        return journal.append(List.of(pool.get(next.getAndIncrement() & (BenchJournals.POOL - 1)))).join();
    }

    @TearDown(Level.Trial)
    public void close() {
        journal.close();
        BenchJournals.delete(dir);
    }
}
