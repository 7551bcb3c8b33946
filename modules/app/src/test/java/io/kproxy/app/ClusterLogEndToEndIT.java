package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kproxy.events.Envelope;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.kafka.KafkaEventLog;
import io.kproxy.journal.kafka.KafkaLogOptions;
import io.kproxy.journal.kafka.MirroredOffsets;
import io.kproxy.journal.kafka.NodeFacts;
import io.kproxy.journal.kafka.Topics;
import io.kproxy.kafka.testkit.KafkaBroker;
import io.kproxy.model.NodeName;
import io.kproxy.recorder.ClusterRecorder;
import io.kproxy.recorder.RecorderOptions;
import io.kproxy.source.kube.KubeSourceOptions;
import io.kproxy.source.kube.LeaseElection;
import io.kproxy.testkit.KernelTests;
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
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The cluster event log end to end (issue 22): fabric8's mock API server, two recorder replicas
 * (one leads), Apache Kafka's broker, and two node agents ({@code ./kproxy run --event-log kafka})
 * in the two node namespaces of the packet-test topology, each reaching the broker through a
 * relay on its loopback. The leader is closed in the middle of a burst of changes; the other
 * replica takes the Lease, fences and relists. Both nodes end with the API server's final state
 * (real connections from a pod of each node, and each node's nftables), and each node's journal
 * holds its facts of the topic once each, in order, from its first mirrored record on. Needs root,
 * {@code ip} and {@code nft}.
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
    private final List<AutoCloseable> closing = new ArrayList<>();
    private Path dir;

    @BeforeEach
    void setUp() throws Exception {
        KernelTests.require("ip", "nft");
        broker = KafkaBroker.start();
        api = new MockApi();
        topo = Topology.create();
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

    private ClusterRecorder recorder(String identity) {
        KafkaLogOptions log = KafkaLogOptions.of(broker.bootstrapServers(), TOPIC, CLUSTER)
                .withTransactionalId(RecorderOptions.transactionalId(CLUSTER));
        LeaseElection.Settings lease = new LeaseElection.Settings("kube-system", "kproxy-recorder", identity, Duration.ofSeconds(4),
                Duration.ofSeconds(3), Duration.ofMillis(500));
        ClusterRecorder r = ClusterRecorder.start(new RecorderOptions(KubeSourceOptions.defaults(new NodeName(identity))
                .withMasterUrl("http://127.0.0.1:" + api.port()), log, lease, 20, Duration.ofMillis(500)));
        closing.add(r);
        return r;
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
    void bothNodesEndWithTheFinalStateAfterALeaderFailoverMidBurst() throws Exception {
        ClusterRecorder first = recorder("recorder-1");
        ClusterRecorder second = recorder("recorder-2");
        AgentProcess a = agent("node", "node-a");
        AgentProcess b = agent("node2", "node-b");
        await("a leader").atMost(Duration.ofSeconds(60)).until(() -> first.leading() || second.leading());
        ClusterRecorder leader = first.leading() ? first : second;
        ClusterRecorder other = leader == first ? second : first;
        await("web from both nodes").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .until(() -> !a.alive() || !b.alive() || (servers("pod3", WEB, 1).contains("pod1") || servers("pod3", WEB, 1).contains("pod2"))
                        && !servers("rpod", WEB, 3).stream().allMatch(s -> s.startsWith("T") || s.startsWith("R")));
        assertThat(a.alive()).as("node-a alive; log:%n%s", a.output()).isTrue();
        assertThat(b.alive()).as("node-b alive; log:%n%s", b.output()).isTrue();

        // The burst: a Service each, alternating backends; the leader goes in the middle.
        for (int i = 1; i <= BURST; i++) {
            api.apply(MockApi.service("s" + i, "172.30.1." + i));
            String pod = i % 2 == 0 ? POD2 : POD1;
            api.apply(MockApi.slice("s" + i, List.<String[]>of(new String[] {pod, "node-a"}), Instant.now().toString()));
            if (i == BURST / 2) {
                leader.close();
            }
        }
        api.deleteService("s3");
        api.apply(MockApi.slice("web", List.<String[]>of(new String[] {POD1, "node-a"}), Instant.now().toString()));
        await("the other replica leads").atMost(Duration.ofSeconds(60)).until(other::leading);

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
            long start = mirrored.getFirst();
            List<Long> expected = topic.stream().filter(e -> e.offset() >= start && NodeFacts.forNode(new NodeName(node), e.event()))
                    .map(Envelope::offset).toList();
            assertThat(mirrored).as("%s: each of its facts on the topic once, in order (no gap, no duplicate)", node).isEqualTo(expected);
        }
    }
}
