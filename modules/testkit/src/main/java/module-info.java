/**
 * Shared test fixtures; a test-scope dependency only, never a main-scope one. Builders for
 * Service, EndpointSlice and Node objects and for event sequences, a golden-file helper that
 * prints a diff, the kernel-test gate ({@code KPROXY_REQUIRE_KERNEL}), network namespaces, and
 * the packet-test topology ({@code io.kproxy.testkit.netns}: namespaces for a node, its pods, an
 * external client and a second node, with echo servers and probes; sockets are created inside a
 * namespace on an {@link io.kproxy.netns.NetnsThread}, so launch with
 * {@code --enable-native-access=io.kproxy.netns}), and the User-Mode Linux runner
 * ({@code io.kproxy.testkit.uml}: boots a UML guest over the host's read-only root and runs a
 * command inside, for kernel features this machine's kernel lacks, such as IPVS).
 *
 * <p>It depends on events (and so model), netns and AssertJ only (the packet-flow row {@code Flow}
 * asserts): state, netlink and backend tests use it, so it cannot
 * depend on them (Maven forbids the cycle). Backend fakes live with the backend SPI.
 */
module io.kproxy.testkit {
    requires transitive io.kproxy.events;
    // Topology hands out the threads its tests create sockets on.
    requires transitive io.kproxy.netns;
    requires transitive org.junit.jupiter.api;
    requires org.opentest4j;
    requires org.assertj.core;

    exports io.kproxy.testkit;
    exports io.kproxy.testkit.netns;
    exports io.kproxy.testkit.uml;
}
