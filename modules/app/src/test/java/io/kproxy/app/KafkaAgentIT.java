package io.kproxy.app;

import static io.kproxy.testkit.EndpointSliceFixture.slice;
import static io.kproxy.testkit.NodeFixture.node;
import static io.kproxy.testkit.ServiceFixture.service;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.kafka.KafkaEventLog;
import io.kproxy.journal.kafka.KafkaLogOptions;
import io.kproxy.journal.kafka.MirroredOffsets;
import io.kproxy.journal.kafka.Topics;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.kafka.testkit.KafkaBroker;
import io.kproxy.testkit.KernelTests;
import io.kproxy.testkit.netns.Topology;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A node agent in Kafka mode (docs/kafka.md, "Followers"): Apache Kafka's broker (kafka-testkit),
 * a producer appending what a recorder would, {@code ./kproxy run --event-log kafka} in the node
 * namespace of the packet-test topology (the broker's port is relayed into it, so the broker's
 * advertised address works there), and real connections from a pod namespace. The agent never
 * talks to an API server. Needs root, {@code ip} and {@code nft} (skipped otherwise).
 */
class KafkaAgentIT {

    private static final String NODE = "node-a";
    private static final String CLUSTER = "it-cluster";
    private static final String TOPIC = "cluster-events";
    private static final String WEB = "172.30.0.10";
    private static final String POD1 = "10.0.1.11";
    private static final String POD2 = "10.0.1.12";
    private static final String RPOD = "10.0.2.11";

    private KafkaBroker broker;
    private Topology topo;
    private NetnsRelay relay;
    private Path dir;
    private KafkaEventLog recorder;
    private final List<Long> appended = new ArrayList<>();
    private final List<AgentProcess> agents = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        KernelTests.require("ip", "nft");
        broker = KafkaBroker.start();
        int port = KafkaAgents.port(broker);
        topo = Topology.create();
        relay = NetnsRelay.start(topo.executor("node"), port, new InetSocketAddress("127.0.0.1", port));
        dir = Files.createTempDirectory(Path.of("/tmp"), "kp-kafka-");
        KafkaLogOptions o = KafkaLogOptions.of(broker.bootstrapServers(), TOPIC, CLUSTER);
        Topics.create(o, (short) 1, Duration.ofDays(7).toMillis());
        recorder = KafkaEventLog.open(o);
        append(node(NODE).internalIP("192.168.0.2").observed(), node("node-b").internalIP("192.168.0.3").observed(),
                service("demo", "web").clusterIP(WEB).port("http", 80, "TCP").port("dns", 53, "UDP").observed(),
                webSlice("1", POD1, NODE, POD2, NODE), new SourceSynced(ResourceKind.SERVICE, "1"),
                new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1"), new SourceSynced(ResourceKind.NODE, "1"),
                new SourceSynced(ResourceKind.SERVICE_CIDR, "1"));
    }

    @AfterEach
    void tearDown() throws IOException {
        for (AgentProcess a : agents) {
            a.close();
        }
        if (recorder != null) {
            recorder.close();
        }
        if (relay != null) {
            relay.close();
        }
        if (topo != null) {
            topo.close();
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

    private static io.kproxy.events.EndpointSliceObserved webSlice(String rv, String... ipsAndNodes) {
        var s = slice("demo", "web-1", "web").resourceVersion(rv).port("http", 8080, "TCP").port("dns", 5353, "UDP");
        for (int i = 0; i < ipsAndNodes.length; i += 2) {
            s.endpoint(ipsAndNodes[i]).node(ipsAndNodes[i + 1]).ready(true);
        }
        return s.observed();
    }

    private void append(io.kproxy.events.ClusterEvent... events) {
        List<EventLog.Draft> drafts = new ArrayList<>();
        for (io.kproxy.events.ClusterEvent e : events) {
            drafts.add(new EventLog.Draft("source/kube", e));
        }
        appended.addAll(recorder.append(drafts).join());
    }

    private AgentProcess startAgent(String logName) throws IOException {
        AgentProcess a = AgentProcess.start(topo.ns("node").prefix(), KafkaAgents.run(NODE, dir, broker, TOPIC, CLUSTER), logName);
        agents.add(a);
        return a;
    }

    private int healthz() {
        return NetnsHttp.get(topo.executor("node"), "127.0.0.1", 10256, "/healthz").status();
    }

    private Set<String> tcpServers(int tries) {
        return KafkaAgents.servers(topo, "pod3", WEB, tries);
    }

    @Test
    void followsTheTopicProgramsTheKernelResumesAfterAKill9AndSurvivesALostBrokerWithoutGapOrDuplicate() throws Exception {
        AgentProcess agent = startAgent("kafka-agent-1.log");
        await("web reachable").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .until(() -> tcpServers(1).contains("pod1") || tcpServers(1).contains("pod2") || !agent.alive());
        assertThat(agent.alive()).as("agent alive; log:%n%s", agent.output()).isTrue();
        assertThat(tcpServers(40)).containsExactlyInAnyOrder("pod1", "pod2");
        NetnsHttp.Response metrics = NetnsHttp.get(topo.executor("node"), "127.0.0.1", 10249, "/metrics");
        assertThat(metrics.body()).contains("kproxy_kafka_follower_lag_records", "kproxy_kafka_follower_offset");

        // A change on the topic reaches the kernel.
        append(webSlice("2", POD1, NODE));
        await("scaled down").atMost(Duration.ofSeconds(30)).until(() -> tcpServers(10).equals(Set.of("pod1")));

        // Killed; the topic moves on meanwhile; the restarted agent resumes after its last mirrored offset.
        agent.kill9();
        append(webSlice("3", POD1, NODE, RPOD, "node-b"));
        AgentProcess restarted = startAgent("kafka-agent-2.log");
        await("scaled up after restart").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .until(() -> tcpServers(20).equals(Set.of("pod1", "rpod")) || !restarted.alive());
        assertThat(restarted.alive()).as("agent alive; log:%n%s", restarted.output()).isTrue();
        assertThat(healthz()).isEqualTo(200);

        // The broker is lost (SIGKILL): the rules stay, /healthz turns 503 after twice the sync
        // period; it returns on the same port and data: the agent reconnects and follows again.
        broker.kill();
        await("healthz 503 while the broker is gone").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> healthz() == 503);
        assertThat(tcpServers(20)).as("rules kept while the broker is gone").isEqualTo(Set.of("pod1", "rpod"));
        assertThat(NetnsHttp.get(topo.executor("node"), "127.0.0.1", 10256, "/livez").status()).isEqualTo(200);
        broker.restart();
        append(webSlice("4", POD2, NODE));
        await("follows again after the broker returns").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .until(() -> healthz() == 200 && tcpServers(10).equals(Set.of("pod2")));
        restarted.close();

        // The node's journal holds every record of the topic once, in order (node-b's Node is not this node's).
        List<Long> mirrored = new ArrayList<>();
        try (LocalJournal j = LocalJournal.openReadOnly(dir.resolve("journal"))) {
            for (Envelope e : j.read(0, 100_000)) {
                MirroredOffsets.offsetOf(e.source()).ifPresent(mirrored::add);
            }
        }
        List<Long> expected = new ArrayList<>(appended);
        expected.remove(Long.valueOf(1)); // node-b
        assertThat(mirrored).isEqualTo(expected);
    }
}
