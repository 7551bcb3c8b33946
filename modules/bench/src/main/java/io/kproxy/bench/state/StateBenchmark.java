package io.kproxy.bench.state;

import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.Envelope;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.state.FoldStep;
import io.kproxy.state.FoldedState;
import java.time.Instant;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The fold and projection at scale (issue 4 goals): 10,000 Services × 5 endpoints.
 *
 * <ul>
 *   <li>{@link #sliceChange}: one EndpointSlice update (one endpoint turns not ready) folded,
 *       projected and diffed into a {@code StateDelta}: goal ≤ 50 µs.</li>
 *   <li>{@link #fullProjection}: a configuration change that renames the node, so every
 *       endpoint's locality changes and every Service is projected again, plus the delta
 *       over all of them: goal ≤ 250 ms.</li>
 *   <li>{@link #restoreSnapshot}: decoding a snapshot of the whole state and projecting it from
 *       scratch (what a restart does).</li>
 * </ul>
 * Heap held by the state is measured by {@link StateHeap}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class StateBenchmark {

    @Param({"10000"})
    int services;

    @Param({"5"})
    int endpoints;

    private FoldedState base;
    private Envelope[] sliceChanges;
    private Envelope rename;
    private byte[] snapshot;
    private int next;

    @Setup
    public void setUp() {
        SyntheticCluster cluster = new SyntheticCluster(services, endpoints);
        base = cluster.fold();
        Random rnd = new Random(1);
        sliceChanges = new Envelope[1024];
        for (int i = 0; i < sliceChanges.length; i++) {
            sliceChanges[i] = new Envelope(base.offset() + 1, Instant.EPOCH, "bench", cluster.slice(rnd.nextInt(services), 1 + rnd.nextInt(4)));
        }
        rename = new Envelope(base.offset() + 1, Instant.EPOCH, "bench", new ConfigRecorded(new NodeName("node-1"),
                Json.obj("mode", Json.of("nftables"), "clusterCIDR", Json.of("10.0.0.0/8"))));
        snapshot = base.toSnapshot();
        FoldStep check = base.apply(sliceChanges[0]);
        if (check.delta().changedPorts().size() != 1) {
            throw new IllegalStateException("a slice change must change exactly one port: " + check.delta());
        }
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public FoldStep sliceChange() {
        return base.apply(sliceChanges[next++ & (sliceChanges.length - 1)]);
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public FoldStep fullProjection() {
        return base.apply(rename);
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public FoldedState restoreSnapshot() {
        return FoldedState.fromSnapshot(snapshot);
    }
}
