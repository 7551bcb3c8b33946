package io.kproxy.app;

import io.kproxy.kafka.testkit.KafkaBroker;
import io.kproxy.testkit.netns.Outcome;
import io.kproxy.testkit.netns.Probe;
import io.kproxy.testkit.netns.Topology;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** What the Kafka-mode agent tests share: the agent's command line and a probe of a Service's backends. */
final class KafkaAgents {

    private KafkaAgents() {
    }

    /**
     * {@code kproxy run} for {@code node} in Kafka mode, its journal and admin socket under
     * {@code dir}; no API client at all (no kubeconfig, no {@code --master}): a follower needs
     * none, and its Events are off.
     */
    static List<String> run(String node, Path dir, KafkaBroker broker, String topic, String cluster) {
        return List.of("run", "--hostname-override", node, "--proxy-mode", "nftables",
                "--cluster-cidr", "10.0.0.0/16", "--journal-dir", dir.resolve("journal").toString(), "--iptables-sync-period", "2s",
                "--iptables-min-sync-period", "0s", "--healthz-bind-address", "0.0.0.0:10256", "--metrics-bind-address", "127.0.0.1:10249",
                "--admin-socket", dir.resolve("admin.sock").toString(), "--event-log", "kafka", "--kafka-bootstrap-servers",
                broker.bootstrapServers(), "--kafka-topic", topic, "--kafka-cluster", cluster);
    }

    /** The broker's port: a relay listens on it inside a node namespace, so that its advertised address works there. */
    static int port(KafkaBroker broker) {
        return Integer.parseInt(broker.bootstrapServers().substring(broker.bootstrapServers().indexOf(':') + 1));
    }

    /** The servers (or failure kinds) that answered {@code tries} TCP connections from {@code from} to {@code ip}:80. */
    static Set<String> servers(Topology topo, String from, String ip, int tries) {
        Probe p = topo.probe(from, 1_000);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < tries; i++) {
            Outcome o = p.tcp(null, ip, 80);
            seen.add(o.kind() == Outcome.Kind.REPLY ? o.server() : o.kind().name());
        }
        return seen;
    }
}
