/**
 * Test fixtures the nftables and iptables backends share; a test-scope dependency only, never a
 * main-scope one. NodeState builders with upstream's endpoint selection ({@code States}), seeded
 * random services ({@code RandomStates}), upstream's overall-rules services
 * ({@code UpstreamScenarios}), the packet-test services ({@code PacketWorld}), the incremental
 * property helpers ({@code IncrementalProperty}), and the kernel-test node with its conntrack
 * scenario ({@code BackendNode}, {@code ConntrackScenario}).
 *
 * <p>It sits above state and backend, which {@code io.kproxy.testkit} cannot (state's and
 * netlink's tests depend on testkit; Maven forbids the cycle). What differs between the modes
 * (the node-wide defaults, the renderer, the fake kernel) stays with each backend's tests and is
 * passed in.
 */
module io.kproxy.backend.testkit {
    requires transitive io.kproxy.backend;
    requires transitive io.kproxy.state;
    requires transitive io.kproxy.testkit;
    requires org.assertj.core;

    exports io.kproxy.backend.testkit;
}
