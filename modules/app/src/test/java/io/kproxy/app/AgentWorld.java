package io.kproxy.app;

import io.kproxy.netns.NetnsThread;
import io.kproxy.testkit.netns.Outcome;
import io.kproxy.testkit.netns.Probe;
import io.kproxy.testkit.netns.Topology;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What the agent's end-to-end tests run in: the packet-test topology (network namespaces the
 * test owns), fabric8's mock API server reached from the node namespace at
 * {@code 127.0.0.1:}{@value #API_PORT} through a relay, and a private temporary directory for
 * the journal and the admin socket. {@link #close()} removes all of it. Not thread-safe.
 */
final class AgentWorld implements AutoCloseable {

    static final int API_PORT = 16443;

    final Topology topo;
    final NetnsThread node;
    final MockApi api;
    final NetnsRelay relay;
    final Path dir;

    private AgentWorld(Topology topo, MockApi api, NetnsRelay relay, Path dir) {
        this.topo = topo;
        this.node = topo.executor("node");
        this.api = api;
        this.relay = relay;
        this.dir = dir;
    }

    /** Creates the world; whatever was created is removed again when a later step fails. */
    static AgentWorld create(String dirPrefix) throws IOException {
        Topology topo = Topology.create();
        MockApi api = null;
        NetnsRelay relay = null;
        try {
            api = new MockApi();
            relay = NetnsRelay.start(topo.executor("node"), API_PORT, new InetSocketAddress("127.0.0.1", api.port()));
            // Short and under /tmp: the admin socket's path must fit in 107 bytes.
            return new AgentWorld(topo, api, relay, Files.createTempDirectory(Path.of("/tmp"), dirPrefix));
        } catch (IOException | RuntimeException e) {
            Exception also = closeAll(relay, api, topo);
            if (also != null) {
                e.addSuppressed(also);
            }
            throw e;
        }
    }

    /** The servers (or the failure kinds) that answered {@code tries} TCP connections from pod3 to {@code ip}:80. */
    Set<String> tcpServers(String ip, int tries) {
        Probe p = topo.probe("pod3", 1_000);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < tries; i++) {
            Outcome o = p.tcp(null, ip, 80);
            seen.add(o.kind() == Outcome.Kind.REPLY ? o.server() : o.kind().name());
        }
        return seen;
    }

    @Override
    public void close() {
        Exception failed = closeAll(relay, api, topo);
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (failed != null) {
            throw new IllegalStateException("tearing the agent's world down failed", failed);
        }
    }

    /** Closes every part, even after one fails; the first failure (others suppressed), or null. */
    private static Exception closeAll(AutoCloseable... parts) {
        Exception first = null;
        for (AutoCloseable c : parts) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) {
                    if (first == null) {
                        first = e;
                    } else {
                        first.addSuppressed(e);
                    }
                }
            }
        }
        return first;
    }
}
