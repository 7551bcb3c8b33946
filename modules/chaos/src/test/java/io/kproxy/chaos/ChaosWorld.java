package io.kproxy.chaos;

import io.kproxy.testkit.NetNs;
import io.kproxy.testkit.netns.Topology;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where a run happens, all of it created here and removed by {@link #close()}: the testkit's
 * packet-test topology (node, pods with echo servers, a second node), a scratch namespace for
 * loading renders, the mock API server, the fault proxy in the node namespace at
 * {@code 127.0.0.1:}{@value #API_PORT}, and a private directory for the journal, object dumps
 * and the render configuration. The agent only ever runs inside the node namespace.
 */
final class ChaosWorld implements AutoCloseable {

    static final String NODE = "node-a";
    static final int API_PORT = 16443;
    static final int HEALTHZ_PORT = 10256;
    static final String SYNC_PERIOD = "2s";

    final Topology topo;
    final NetNs scratch;
    final MockCluster cluster;
    final FaultProxy proxy;
    final Rulesets rulesets;
    final Path dir;
    final Path logs;
    final DiskFull disk;
    /** {@code nftables} or {@code iptables}: the agent's {@code --proxy-mode}. */
    final String mode;
    private final List<Agent> agents = new ArrayList<>();
    private long clockOffsetSeconds;

    private ChaosWorld(Topology topo, NetNs scratch, MockCluster cluster, FaultProxy proxy, Path dir, Path logs, DiskFull disk,
                       String mode) {
        this.disk = disk;
        this.mode = mode;
        this.topo = topo;
        this.scratch = scratch;
        this.cluster = cluster;
        this.proxy = proxy;
        this.rulesets = new Rulesets(topo.ns("node"), scratch, mode);
        this.dir = dir;
        this.logs = logs;
    }

    /** Builds the world; what was built is removed again when a later step fails. */
    static ChaosWorld create(Path logs, String mode) throws IOException {
        if (!mode.equals("nftables") && !mode.equals("iptables")) {
            throw new IllegalArgumentException("mode must be nftables or iptables: " + mode);
        }
        Topology topo = Topology.create();
        NetNs scratch = null;
        MockCluster cluster = new MockCluster();
        FaultProxy proxy = null;
        try {
            scratch = NetNs.create("chaos-scratch");
            proxy = FaultProxy.start(topo.executor("node"), API_PORT, cluster.start(), cluster::servesWatch);
            // Short and under /tmp: the admin socket's path must fit in 107 bytes.
            Path dir = Files.createTempDirectory(Path.of("/tmp"), "kp-chaos-");
            Files.writeString(dir.resolve("render-config.yaml"),
                    "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: " + mode + "\nclusterCIDR: 10.0.0.0/16\n");
            return new ChaosWorld(topo, scratch, cluster, proxy, dir, logs, DiskFull.mount(dir.resolve("disk")), mode);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while mounting the journal's tmpfs", e);
        } catch (IOException | RuntimeException e) {
            for (AutoCloseable c : new AutoCloseable[] {proxy, cluster, scratch, topo}) {
                try {
                    if (c != null) {
                        c.close();
                    }
                } catch (Exception also) {
                    e.addSuppressed(also);
                }
            }
            throw e;
        }
    }

    /** On the small tmpfs the runner fills ({@link DiskFull}). */
    Path journal() {
        return disk.root().resolve("journal");
    }

    /**
     * The next lives of the agent run in a time namespace whose CLOCK_MONOTONIC and
     * CLOCK_BOOTTIME are {@code seconds} ahead of the machine's ({@code unshare --time}, which
     * sets the offsets and execs, so the process is still the agent); the machine's clocks are
     * never touched, and CLOCK_REALTIME has no namespace (chaos/README.md, CLOCK_STEP).
     */
    void clockOffset(long seconds) {
        clockOffsetSeconds = seconds;
    }

    long clockOffset() {
        return clockOffsetSeconds;
    }

    /** Starts a new life of the agent inside the node namespace, the same command every time. */
    Agent startAgent() throws IOException {
        List<String> args = List.of("run", "--hostname-override", NODE, "--master", "http://127.0.0.1:" + API_PORT, "--proxy-mode", mode,
                "--cluster-cidr", "10.0.0.0/16", "--journal-dir", journal().toString(), "--iptables-sync-period", SYNC_PERIOD,
                "--iptables-min-sync-period", "0s", "--healthz-bind-address", "0.0.0.0:" + HEALTHZ_PORT, "--metrics-bind-address",
                "127.0.0.1:10249", "--snapshot-interval", "100", "--admin-socket", dir.resolve("admin.sock").toString());
        List<String> prefix = new ArrayList<>();
        if (clockOffsetSeconds != 0) {
            prefix.addAll(List.of("unshare", "--time", "--monotonic", Long.toString(clockOffsetSeconds), "--boottime",
                    Long.toString(clockOffsetSeconds)));
        }
        prefix.addAll(topo.ns("node").prefix());
        Agent a = Agent.start(prefix, args, logs.resolve("agent-" + (agents.size() + 1) + ".log"));
        agents.add(a);
        return a;
    }

    int agentStarts() {
        return agents.size();
    }

    /**
     * What {@code kproxy render --objects} prints for the cluster's objects now, IPv4 only, as the
     * kernel lists it (the nftables table, or {@code iptables-save}).
     */
    String renderObjects() throws IOException {
        Kproxy.Result r = renderObjectsText(true);
        if (r.exit() != 0) {
            return "(render --objects exit " + r.exit() + ": " + r.stderr().strip() + ")";
        }
        return rulesets.loaded(r.stdout());
    }

    private Kproxy.Result renderObjectsText(boolean ipv4Only) throws IOException {
        Path objects = dir.resolve("objects");
        cluster.dump(objects);
        List<String> args = new ArrayList<>(List.of("render", "--objects", objects.toString(), "--node", NODE, "--mode", mode,
                "--config", dir.resolve("render-config.yaml").toString()));
        if (ipv4Only) {
            args.addAll(List.of("--family", "ipv4"));
        }
        return Kproxy.run(120, args.toArray(String[]::new));
    }

    /**
     * {@code kproxy render --journal}: what the journal says the node had programmed by now, as
     * the kernel lists it, and its stderr (the hash check). In iptables mode the journal's render
     * is both families' restore text without the jumps from the built-in chains, which does not
     * load as it is: it must equal the same text of {@code render --objects}, and then stands for
     * the objects' loaded render.
     */
    Kproxy.Result renderJournal() throws IOException {
        Kproxy.Result r = Kproxy.run(120, "render", "--journal", journal().toString(), "--at", "now");
        if (r.exit() != 0) {
            return r;
        }
        if (mode.equals("nftables")) {
            return new Kproxy.Result(0, rulesets.loaded(r.stdout()), r.stderr());
        }
        Kproxy.Result objects = renderObjectsText(false);
        if (objects.exit() != 0) {
            return new Kproxy.Result(0, "(render --objects exit " + objects.exit() + ": " + objects.stderr().strip() + ")", r.stderr());
        }
        if (!objects.stdout().equals(r.stdout())) {
            return new Kproxy.Result(0, "(render --journal differs from render --objects: "
                    + Rulesets.firstDifference(r.stdout(), objects.stdout()) + ")", r.stderr());
        }
        return new Kproxy.Result(0, renderObjects(), r.stderr());
    }

    @Override
    public void close() {
        agents.forEach(Agent::close);
        RuntimeException failed = null;
        for (AutoCloseable c : new AutoCloseable[] {proxy, cluster, scratch, topo, disk}) {
            try {
                c.close();
            } catch (Exception e) {
                if (failed == null) {
                    failed = new IllegalStateException("tearing the chaos world down failed", e);
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (failed != null) {
            throw failed;
        }
    }
}
