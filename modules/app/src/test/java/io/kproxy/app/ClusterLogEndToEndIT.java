package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kproxy.events.Envelope;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.kafka.KafkaEventLog;
import io.kproxy.journal.kafka.KafkaLogOptions;
import io.kproxy.journal.kafka.MirroredOffsets;
import io.kproxy.journal.kafka.NodeFacts;
import io.kproxy.journal.kafka.Topics;
import io.kproxy.kafka.testkit.KafkaBroker;
import io.kproxy.model.NodeName;
import io.kproxy.testkit.KernelTests;
import io.kproxy.testkit.NetNs;
import io.kproxy.testkit.NftListing;
import io.kproxy.testkit.netns.Topology;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The cluster event log end to end (issue 22): fabric8's mock API server, two recorder replicas
 * (one leads), Apache Kafka's broker, and two node agents ({@code ./kproxy run --event-log kafka})
 * in the two node namespaces of the packet-test topology, each reaching the broker through a
 * relay on its loopback. The recorders are {@code ./kproxy record} processes; the leader is
 * SIGKILLed in the middle of a burst of changes (the Lease stays held until it expires); the other
 * replica takes the Lease, fences and relists. Both nodes end with exactly the API server's final
 * state: real connections from a pod of each node, and each node's nftables table equal, byte for
 * byte after {@link NftListing#canonical}, to {@code render --objects} of the API server's final
 * objects. Each node's journal holds its facts of the topic once each, in order, from its first
 * mirrored record on (docs/kafka.md, "Followers"). Needs root, {@code ip} and {@code nft}.
 */
class ClusterLogEndToEndIT {

    private static final String CLUSTER = "e2e";
    private static final String TOPIC = "cluster-events";
    private static final String WEB = "172.30.0.10";
    private static final String POD1 = "10.0.1.11";
    private static final String POD2 = "10.0.1.12";
    private static final int BURST = 24;

    private KafkaBroker broker;
    private MockApi api;
    private Topology topo;
    private NetNs scratch;
    private final List<AutoCloseable> closing = new ArrayList<>();
    private Path dir;

    @BeforeEach
    void setUp() throws Exception {
        KernelTests.require("ip", "nft");
        broker = KafkaBroker.start();
        api = new MockApi();
        topo = Topology.create();
        scratch = NetNs.create("e2escratch");
        dir = Files.createTempDirectory(Path.of("/tmp"), "kp-e2e-kafka-");
        int port = KafkaAgents.port(broker);
        for (String ns : List.of("node", "node2")) {
            closing.add(NetnsRelay.start(topo.executor(ns), port, new InetSocketAddress("127.0.0.1", port)));
        }
        Topics.create(KafkaLogOptions.of(broker.bootstrapServers(), TOPIC, CLUSTER), (short) 1, Duration.ofDays(7).toMillis());
        api.apply(MockApi.node("node-a", "192.168.0.2"));
        api.apply(MockApi.node("node-b", "192.168.0.3"));
        api.apply(MockApi.service("web", WEB));
        api.apply(MockApi.slice("web", List.of(new String[] {POD1, "node-a"}, new String[] {POD2, "node-a"}), Instant.now().toString()));
    }

    @AfterEach
    void tearDown() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
        if (scratch != null) {
            scratch.close();
        }
        if (topo != null) {
            topo.close();
        }
        if (api != null) {
            api.close();
        }
        if (broker != null) {
            broker.close();
        }
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * A replica as the Deployment runs it: {@code ./kproxy record} in its own JVM, so that
     * {@link AgentProcess#kill9()} is a real crash (no shutdown hook, the Lease not released, a
     * transaction possibly open). An in-process recorder cannot die like that: closing it releases
     * the Lease and aborts its producer cleanly, the easy case.
     */
    private AgentProcess recorder(String identity) throws IOException {
        AgentProcess r = AgentProcess.start(List.of(), List.of("record", "--master", "http://127.0.0.1:" + api.port(),
                "--kafka-bootstrap-servers", broker.bootstrapServers(), "--topic", TOPIC, "--cluster", CLUSTER, "--identity", identity,
                "--lease-namespace", "kube-system", "--snapshot-interval", "20"), "e2e-kafka-" + identity + ".log");
        closing.add(r);
        return r;
    }

    /** The Lease's holder, or empty. */
    private String holder() {
        Lease l = api.client().leases().inNamespace("kube-system").withName("kproxy-recorder").get();
        return l == null || l.getSpec() == null || l.getSpec().getHolderIdentity() == null ? "" : l.getSpec().getHolderIdentity();
    }

    /** The API server's Services, EndpointSlices and Nodes now, as object files for {@code render --objects}. */
    private Path dumpObjects() throws IOException {
        Path objects = Files.createDirectories(dir.resolve("objects"));
        List<HasMetadata> all = new ArrayList<>();
        all.addAll(api.client().services().inAnyNamespace().list().getItems());
        all.addAll(api.client().discovery().v1().endpointSlices().inAnyNamespace().list().getItems());
        all.addAll(api.client().nodes().list().getItems());
        for (int i = 0; i < all.size(); i++) {
            Files.writeString(objects.resolve(String.format("%03d-%s.yaml", i, all.get(i).getKind())), Serialization.asYaml(all.get(i)));
        }
        Files.writeString(dir.resolve("render-config.yaml"),
                "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: nftables\nclusterCIDR: 10.0.0.0/16\n");
        return objects;
    }

    /**
     * What {@code node} must have programmed: {@code kproxy render --objects} of the API server's
     * objects, loaded into a scratch namespace and listed by the kernel (as the chaos runner's
     * convergence check, modules/chaos), canonical.
     */
    private String expected(Path objects, String node) {
        RenderCommandTest.Run r = RenderCommandTest.run("render", "--objects", objects.toString(), "--node", node, "--mode", "nftables",
                "--family", "ipv4", "--config", dir.resolve("render-config.yaml").toString());
        assertThat(r.exit()).as("render --objects for %s: %s", node, r.err()).isZero();
        scratch.exec("nft", "flush", "ruleset");
        NetNs.Result load = scratch.tryExecWithInput(r.out(), "nft", "-f", "-");
        assertThat(load.exitCode()).as("the render loads: %s", load.stderr()).isZero();
        return NftListing.canonical(scratch.exec("nft", "list", "table", "ip", "kube-proxy"));
    }

    private String table(String ns) {
        return NftListing.canonical(topo.ns(ns).exec("nft", "list", "table", "ip", "kube-proxy"));
    }

    private AgentProcess agent(String ns, String node) throws IOException {
        AgentProcess a = AgentProcess.start(topo.ns(ns).prefix(), KafkaAgents.run(node, dir.resolve(node), broker, TOPIC, CLUSTER),
                "e2e-kafka-" + node + ".log");
        closing.add(a);
        return a;
    }

    private Set<String> servers(String from, String ip, int tries) {
        return KafkaAgents.servers(topo, from, ip, tries);
    }

    private String rules(String ns) {
        return NftListing.canonical(topo.ns(ns).exec("nft", "list", "ruleset"));
    }

    @Test
    void bothNodesEndWithTheFinalStateAfterALeaderKilledMidBurst() throws Exception {
        Map<String, AgentProcess> recorders = Map.of("recorder-1", recorder("recorder-1"), "recorder-2", recorder("recorder-2"));
        AgentProcess a = agent("node", "node-a");
        AgentProcess b = agent("node2", "node-b");
        await("a leader").atMost(Duration.ofSeconds(90)).until(() -> recorders.containsKey(holder()));
        await("web from both nodes").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .until(() -> !a.alive() || !b.alive() || (servers("pod3", WEB, 1).contains("pod1") || servers("pod3", WEB, 1).contains("pod2"))
                        && !servers("rpod", WEB, 3).stream().allMatch(s -> s.startsWith("T") || s.startsWith("R")));
        assertThat(a.alive()).as("node-a alive; log:%n%s", a.output()).isTrue();
        assertThat(b.alive()).as("node-b alive; log:%n%s", b.output()).isTrue();
        for (AgentProcess n : List.of(a, b)) {
            assertThat(n.output().lines().filter(l -> l.contains("decision=events-off")).count()).as("no API client: Events off, said once")
                    .isEqualTo(1);
        }

        // The leader now, just before the burst (a replica that lost the Lease on the way competes again).
        String leaderId = holder();
        AgentProcess leader = recorders.get(leaderId);
        String otherId = leaderId.equals("recorder-1") ? "recorder-2" : "recorder-1";
        AgentProcess other = recorders.get(otherId);
        await("the leader appends").atMost(Duration.ofSeconds(60)).until(() -> leader.output().contains("decision=lead "));

        // The burst: a Service each, alternating backends; the leader is SIGKILLed in the middle,
        // holding the Lease: the other replica leads only once the Lease expires (15 s).
        Instant killed = null;
        for (int i = 1; i <= BURST; i++) {
            api.apply(MockApi.service("s" + i, "172.30.1." + i));
            String pod = i % 2 == 0 ? POD2 : POD1;
            api.apply(MockApi.slice("s" + i, List.<String[]>of(new String[] {pod, "node-a"}), Instant.now().toString()));
            if (i == BURST / 2) {
                leader.kill9();
                killed = Instant.now();
            }
        }
        // Not released: still the killed leader's for its full duration, or (when the rest of the
        // burst took longer than that: fabric8's mock API server can stall its event loop for up to
        // 30 s when a client dies while a watch event is being sent to it) taken after it expired,
        // never within the few seconds a released Lease is taken in.
        Lease lease = api.client().leases().inNamespace("kube-system").withName("kproxy-recorder").get();
        if (lease.getSpec().getHolderIdentity().equals(leaderId)) {
            assertThat(lease.getSpec().getLeaseDurationSeconds()).as("a killed leader does not release the Lease").isEqualTo(15);
        } else {
            assertThat(lease.getSpec().getHolderIdentity()).isEqualTo(otherId);
            assertThat(Duration.between(killed, lease.getSpec().getAcquireTime().toInstant()))
                    .as("a killed leader's Lease is taken only once it expired (renewed at most a retry period before the kill)")
                    .isGreaterThanOrEqualTo(Duration.ofSeconds(12));
        }
        api.deleteService("s3");
        api.apply(MockApi.slice("web", List.<String[]>of(new String[] {POD1, "node-a"}), Instant.now().toString()));
        await("the other replica leads").atMost(Duration.ofSeconds(90)).until(() -> holder().equals(otherId)
                && other.output().contains("decision=lead "));
        assertThat(other.alive()).as("%s alive; log:%n%s", otherId, other.output()).isTrue();

        for (String ns : List.of("node", "node2")) {
            await("final rules on " + ns).atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() -> {
                String r = rules(ns);
                for (int i = 1; i <= BURST; i++) {
                    if (i != 3 && !r.contains("demo/s" + i + "/tcp/http")) {
                        return false;
                    }
                }
                return !r.contains("demo/s3/tcp/http");
            });
        }
        for (String from : List.of("pod3", "rpod")) {
            await("web on pod1 only from " + from).atMost(Duration.ofSeconds(30)).until(() -> servers(from, WEB, 10).equals(Set.of("pod1")));
            assertThat(servers(from, "172.30.1.1", 5)).as("s1 from %s", from).containsExactly("pod1");
            assertThat(servers(from, "172.30.1." + BURST, 5)).as("s%d from %s", BURST, from).containsExactly("pod2");
        }
        // Exactly the final state: each node's table equals the render of the API server's objects.
        Path objects = dumpObjects();
        for (String[] nsNode : List.of(new String[] {"node", "node-a"}, new String[] {"node2", "node-b"})) {
            String want = expected(objects, nsNode[1]);
            await("kernel of " + nsNode[1] + " equals the render of the API server's objects").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500)).untilAsserted(() -> assertThat(table(nsNode[0])).isEqualTo(want));
        }
        a.close();
        b.close();

        List<Envelope> topic;
        try (KafkaEventLog log = KafkaEventLog.open(KafkaLogOptions.of(broker.bootstrapServers(), TOPIC, CLUSTER))) {
            topic = log.read(0, 1_000_000);
        }
        for (String node : List.of("node-a", "node-b")) {
            List<Long> mirrored = new ArrayList<>();
            try (LocalJournal j = LocalJournal.openReadOnly(dir.resolve(node).resolve("journal"))) {
                for (Envelope e : j.read(0, 1_000_000)) {
                    MirroredOffsets.offsetOf(e.source()).ifPresent(mirrored::add);
                }
            }
            assertThat(mirrored).as("%s mirrored records", node).isNotEmpty();
            for (int i = 1; i < mirrored.size(); i++) {
                assertThat(mirrored.get(i)).as("%s: offsets strictly increasing", node).isGreaterThan(mirrored.get(i - 1));
            }
            long start = mirrored.getFirst();
            List<Long> expected = topic.stream().filter(e -> e.offset() >= start && NodeFacts.forNode(new NodeName(node), e.event()))
                    .map(Envelope::offset).toList();
            assertThat(mirrored).as("%s: each of its facts on the topic once, in order (no gap, no duplicate)", node).isEqualTo(expected);
        }
    }
}
