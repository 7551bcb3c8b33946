package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.Envelope;
import io.kproxy.events.SyncApplied;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.kafka.KafkaLogOptions;
import io.kproxy.journal.kafka.Topics;
import io.kproxy.kafka.testkit.KafkaBroker;
import io.kproxy.testkit.KernelTests;
import io.kproxy.testkit.netns.Topology;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/benchmarks.md, "Kafka event log": network programming latency (an API change → a node
 * programmed it) of a Kafka-mode agent beside a local-source agent's, in the same run, on the same
 * changes. Not part of the suite (the name matches no include); run it by name with
 * {@code -Dtest=KafkaProgrammingMeasure}, as root. {@code -Dmeasure.services} Services (default
 * 10,000) with 5 endpoints each are in fabric8's mock API server; node {@code node} runs
 * {@code ./kproxy run} watching the API server, node {@code node2} runs it with
 * {@code --event-log kafka}, fed by a {@code ./kproxy record} process through Kafka's broker. Then
 * {@code -Dmeasure.changes} (default 200) EndpointSlice updates, 10 a second. A change's latency
 * is from just before the update was sent to the {@code SyncApplied} record (appended just after
 * the kernel accepted the transaction) of the first sync that covered the change's observation in
 * that node's journal (the mirrored one in Kafka mode). Prints p50, p99 and max per node, and how
 * long each node took to program the whole cluster at start.
 */
class KafkaProgrammingMeasure {

    private static final String TOPIC = "bench-events";
    private static final String CLUSTER = "bench";
    private static final String HEAP = "-Xmx1g -XX:+UseSerialGC";

    @Test
    void measure() throws Exception {
        KernelTests.require("ip", "nft");
        int n = Integer.getInteger("measure.services", 10_000);
        int changes = Integer.getInteger("measure.changes", 200);
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "kp-kmeasure-");
        List<AutoCloseable> closing = new ArrayList<>();
        try (KafkaBroker broker = KafkaBroker.start(); MockApi api = new MockApi(); Topology topo = Topology.create()) {
            int port = KafkaAgents.port(broker);
            closing.add(NetnsRelay.start(topo.executor("node"), AgentWorld.API_PORT, new InetSocketAddress("127.0.0.1", api.port())));
            closing.add(NetnsRelay.start(topo.executor("node2"), port, new InetSocketAddress("127.0.0.1", port)));
            Topics.create(KafkaLogOptions.of(broker.bootstrapServers(), TOPIC, CLUSTER), (short) 1, Duration.ofDays(7).toMillis());
            api.apply(MockApi.node("node-a", "192.168.0.2"));
            api.apply(MockApi.node("node-b", "192.168.0.3"));
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                api.apply(MockApi.service("svc-" + i, "10.96." + (i / 250) + "." + (i % 250 + 1)));
                api.apply(slice(i, 5));
            }
            System.out.printf("api objects services=%d endpoints_per_service=5 seconds=%.1f%n", n, (System.nanoTime() - t0) / 1e9);

            long start = System.nanoTime();
            closing.add(AgentProcess.start(List.of(), List.of("record", "--master", "http://127.0.0.1:" + api.port(), "--kafka-bootstrap-servers",
                    broker.bootstrapServers(), "--topic", TOPIC, "--cluster", CLUSTER, "--identity", "recorder-1", "--lease-namespace",
                    "kube-system"), "measure-recorder.log", HEAP));
            AgentProcess local = AgentProcess.start(topo.ns("node").prefix(), List.of("run", "--hostname-override", "node-a", "--master",
                    "http://127.0.0.1:" + AgentWorld.API_PORT, "--proxy-mode", "nftables", "--cluster-cidr", "10.0.0.0/16", "--journal-dir",
                    dir.resolve("local").resolve("journal").toString(), "--iptables-sync-period", "30s", "--iptables-min-sync-period", "0s",
                    "--admin-socket", dir.resolve("local").resolve("admin.sock").toString()), "measure-local.log", HEAP);
            closing.add(local);
            List<String> kafkaArgs = new ArrayList<>(KafkaAgents.run("node-b", dir.resolve("kafka"), broker, TOPIC, CLUSTER));
            kafkaArgs.set(kafkaArgs.indexOf("--iptables-sync-period") + 1, "30s");
            AgentProcess kafka = AgentProcess.start(topo.ns("node2").prefix(), kafkaArgs, "measure-kafka.log", HEAP);
            closing.add(kafka);
            String lastIp = "10.96." + ((n - 1) / 250) + "." + ((n - 1) % 250 + 1);
            // Cold start: until the first sync's SyncApplied (its log line), not only the kernel's
            // table: a change sent before it would measure the rest of the first sync.
            for (String[] nsNode : List.of(new String[] {"node", "local"}, new String[] {"node2", "kafka"})) {
                AgentProcess a = nsNode[1].equals("local") ? local : kafka;
                await("first sync on " + nsNode[1]).atMost(Duration.ofMinutes(15)).pollInterval(Duration.ofSeconds(1))
                        .until(() -> !a.alive() || a.output().contains("decision=synced kind=FULL"));
                assertThat(a.alive()).as("%s agent alive; see %s", nsNode[1], a.logFile()).isTrue();
                System.out.printf("%s cold start: first sync of %d Services done after seconds=%.1f%n", nsNode[1], n,
                        (System.nanoTime() - start) / 1e9);
                assertThat(topo.ns(nsNode[0]).exec("nft", "list", "map", "ip", "kube-proxy", "service-ips")).contains(lastIp + " . tcp . 80");
            }

            // The changes: one endpoint fewer on a Service spread over the cluster, 10 a second.
            Map<String, Instant> sent = new HashMap<>();
            for (int k = 0; k < changes; k++) {
                int i = (int) ((long) k * n / changes);
                Instant at = Instant.now();
                EndpointSlice updated = api.client().discovery().v1().endpointSlices().inNamespace(MockApi.NS).resource(slice(i, 4)).update();
                sent.put(updated.getMetadata().getName() + "@" + updated.getMetadata().getResourceVersion(), at);
                Thread.sleep(100);
            }
            // Upstream's own count of programmed endpoint changes: every change once on each node.
            for (String ns : List.of("node", "node2")) {
                await("every change programmed on " + ns).atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1))
                        .until(() -> programmedChanges(topo, ns) >= changes);
            }
            assertThat(local.alive()).as("local agent alive; see %s", local.logFile()).isTrue();
            assertThat(kafka.alive()).as("kafka agent alive; see %s", kafka.logFile()).isTrue();
            assertThat(local.terminate()).isEqualTo(143);
            assertThat(kafka.terminate()).isEqualTo(143);
            for (String which : List.of("local", "kafka")) {
                List<Long> ms = latencies(dir.resolve(which).resolve("journal"), sent);
                assertThat(ms).as("%s: every change programmed", which).hasSize(changes);
                System.out.printf("%s network programming latency changes=%d p50_ms=%d p99_ms=%d max_ms=%d%n", which, ms.size(),
                        ms.get(ms.size() / 2), ms.get((int) Math.ceil(ms.size() * 0.99) - 1), ms.getLast());
            }
        } finally {
            for (int i = closing.size() - 1; i >= 0; i--) {
                closing.get(i).close();
            }
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** {@code kubeproxy_network_programming_duration_seconds}' count on the node's metrics server (-1 while it does not answer). */
    private static double programmedChanges(Topology topo, String ns) {
        String line = "kubeproxy_network_programming_duration_seconds_count{ip_family=\"IPv4\"} ";
        try {
            return NetnsHttp.get(topo.executor(ns), "127.0.0.1", 10249, "/metrics").body().lines().filter(l -> l.startsWith(line))
                    .mapToDouble(l -> Double.parseDouble(l.substring(line.length()).strip())).findFirst().orElse(-1);
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** The slice of Service {@code i} with its first {@code endpoints} of 5 endpoints. */
    private static EndpointSlice slice(int i, int endpoints) {
        List<String[]> ips = new ArrayList<>();
        for (int e = 0; e < endpoints; e++) {
            int k = i * 5 + e;
            ips.add(new String[] {"10." + (10 + k / 65536) + "." + (k / 256 % 256) + "." + (k % 256), "node-x"});
        }
        return MockApi.slice("svc-" + i, ips, Instant.now().toString());
    }

    /** Each sent change's milliseconds to the SyncApplied that covered its observation, sorted. */
    private static List<Long> latencies(Path journal, Map<String, Instant> sent) throws Exception {
        Map<Long, Instant> pending = new HashMap<>();
        List<Long> ms = new ArrayList<>();
        try (LocalJournal j = LocalJournal.openReadOnly(journal)) {
            for (Envelope e : j.read(0, 10_000_000)) {
                if (e.event() instanceof EndpointSliceObserved o) {
                    Instant at = sent.get(o.slice().name() + "@" + o.resourceVersion());
                    if (at != null) {
                        pending.put(e.offset(), at);
                    }
                } else if (e.event() instanceof SyncApplied s) {
                    pending.entrySet().removeIf(p -> {
                        if (p.getKey() > s.uptoOffset()) {
                            return false;
                        }
                        ms.add(Duration.between(p.getValue(), e.recordedAt()).toMillis());
                        return true;
                    });
                }
            }
        }
        ms.sort(null);
        return ms;
    }
}
