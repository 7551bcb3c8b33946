/**
 * A tool, not part of the agent: the generator of the recorded sample histories under
 * {@code events/samples/} (see its README), which the demo, the time-travel tests and the
 * benchmarks replay. {@link io.kproxy.sample.SampleHistories} scripts an hour of a 300-Service
 * cluster with a fixed seed and runs the real engine over it on virtual time (its own Reactor
 * scheduler, {@code io.kproxy.sample.simulator}, not exported); {@code kproxy samples generate}
 * wires it. Backends are found with {@link java.util.ServiceLoader} at run time.
 */
module io.kproxy.sample {
    requires io.kproxy.engine;
    requires io.kproxy.history;
    requires io.kproxy.config.loader;
    requires reactor.core;

    exports io.kproxy.sample;
}
