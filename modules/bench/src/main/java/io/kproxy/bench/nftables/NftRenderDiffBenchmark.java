package io.kproxy.bench.nftables;

import io.kproxy.backend.Backend;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.PersistentMap;
import io.kproxy.state.ServicePortState;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The pure half of one sync at scale: incremental render of one endpoint change on top of the
 * previous plan, plus the diff to the transaction. No kernel. Run:
 * {@code java -cp <bench classpath> org.openjdk.jmh.Main NftRenderDiffBenchmark -f 1 -wi 2 -i 3}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class NftRenderDiffBenchmark {

    @Param({"10000"})
    public int services;

    private Backend backend;
    private PersistentMap<ServicePortName, ServicePortState> base;
    private Plan applied;
    private BenchStates.Change change;
    private int generation;

    @Setup(Level.Trial)
    public void setUp() {
        backend = BackendProvider.forMode("nftables").orElseThrow().create(new io.kproxy.backend.MemoryKernelPort(),
                new io.kproxy.backend.MemoryKernelPort());
        base = BenchStates.services(services);
        applied = backend.diff(Optional.empty(), backend.render(BenchStates.state(base)), SyncOptions.at(Instant.EPOCH)).result();
    }

    @Setup(Level.Invocation)
    public void nextChange() {
        generation++;
        change = BenchStates.endpointChange(base, generation % services, generation);
    }

    @Benchmark
    public Transaction renderAndDiffOneEndpointChange() {
        Plan desired = backend.renderIncremental(applied, change.state(), change.delta());
        return backend.diff(Optional.of(applied), desired, SyncOptions.at(Instant.EPOCH));
    }

    @Benchmark
    public Plan fullRender() {
        return backend.render(change.state());
    }
}
