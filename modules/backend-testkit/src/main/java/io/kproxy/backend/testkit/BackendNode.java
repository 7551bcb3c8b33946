package io.kproxy.backend.testkit;

import io.kproxy.backend.Backend;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.testkit.KernelTests;
import io.kproxy.testkit.netns.Topology;
import java.util.Objects;
import java.util.Optional;

/**
 * A packet-test topology ({@link Topology}: node, pods, external client, second node) with a
 * backend of the given mode programming its node namespace; what a kernel IT opens in
 * {@code @BeforeAll} and closes in {@code @AfterAll}. Creating it blocks on {@code ip} and the
 * mode's tools; use it from one thread at a time. Never returns null.
 */
public final class BackendNode implements AutoCloseable {

    private final Topology topo;
    private final Backend backend;

    private BackendNode(Topology topo, Backend backend) {
        this.topo = topo;
        this.backend = backend;
    }

    /**
     * Requires the tools (skipping, or failing under {@code KPROXY_REQUIRE_KERNEL=1}), creates the
     * topology, and the mode's backend inside its node namespace; on failure nothing is left over.
     */
    public static BackendNode open(String mode, String... tools) {
        Objects.requireNonNull(mode, "mode");
        KernelTests.require(tools);
        Topology topo = Topology.create();
        try {
            Backend backend = BackendProvider.forMode(mode).orElseThrow().create(Optional.of(topo.ns("node").name()));
            return new BackendNode(topo, backend);
        } catch (RuntimeException | Error e) {
            topo.close();
            throw e;
        }
    }

    public Topology topo() {
        return topo;
    }

    public Backend backend() {
        return backend;
    }

    /** Closes the backend, then deletes the topology's namespaces (also when the first fails). */
    @Override
    public void close() {
        try {
            backend.close();
        } finally {
            topo.close();
        }
    }
}
