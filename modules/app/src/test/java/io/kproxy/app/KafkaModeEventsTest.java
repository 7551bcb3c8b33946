package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Kafka-mode agent needs no API client (docs/kafka.md, "Followers"): its client serves Events
 * only, so without a kubeconfig, {@code --master} or the in-cluster environment nothing about it
 * is checked and Events are off; a client that is configured is still checked (a broken kubeconfig
 * is refused, exit 2). ClusterLogEndToEndIT runs Kafka-mode agents with no client and sees the
 * one INFO line.
 */
class KafkaModeEventsTest {

    @TempDir
    Path dir;

    @Test
    void aClientIsConfiguredByAKubeconfigAMasterOrTheInClusterEnvironment() {
        assertThat(KafkaFollowing.apiClientConfigured("", "", Map.of())).isFalse();
        assertThat(KafkaFollowing.apiClientConfigured(" ", "", Map.of("KUBERNETES_SERVICE_HOST", ""))).isFalse();
        assertThat(KafkaFollowing.apiClientConfigured("/etc/kproxy/kubeconfig.conf", "", Map.of())).isTrue();
        assertThat(KafkaFollowing.apiClientConfigured("", "https://10.0.0.1:6443", Map.of())).isTrue();
        assertThat(KafkaFollowing.apiClientConfigured("", "", Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1"))).isTrue();
    }

    @Test
    void withoutAClientTheAgentGoesOnToTheTopic() {
        // No client at all: not refused for it (exit 2); the next check, the broker, refuses (exit 1).
        RunClientConfigTest.Run r = RunClientConfigTest.run(kafkaRun());
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).contains("kproxy run:", "127.0.0.1:9").doesNotContain("in-cluster", "kubeconfig");
    }

    @Test
    void aConfiguredClientIsStillChecked() throws IOException {
        Path kubeconfig = dir.resolve("kubeconfig.conf");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters: [{name: default, cluster: {server: "https://192.0.2.10:6443"}}]
                contexts: [{name: default, context: {cluster: default, user: default}}]
                current-context: default
                users: [{name: default, user: {tokenFile: %s}}]
                """.formatted(dir.resolve("absent")));
        String[] args = kafkaRun();
        String[] withKubeconfig = java.util.Arrays.copyOf(args, args.length + 2);
        withKubeconfig[args.length] = "--kubeconfig";
        withKubeconfig[args.length + 1] = kubeconfig.toString();
        RunClientConfigTest.Run r = RunClientConfigTest.run(withKubeconfig);
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains("kproxy run: kubeconfig " + kubeconfig, "tokenFile", "no such file");
    }

    /** {@code run} in Kafka mode against a port where no broker listens (discard, 9/tcp). */
    private String[] kafkaRun() {
        return new String[] {"run", "--hostname-override", "node-a", "--journal-dir", dir.resolve("journal").toString(), "--event-log", "kafka",
            "--kafka-bootstrap-servers", "127.0.0.1:9", "--kafka-topic", "events", "--kafka-cluster", "c1", "--admin-socket",
            dir.resolve("admin.sock").toString()};
    }
}
