package io.kproxy.kafka.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * The child JVM {@link KafkaBroker} starts: one KRaft node in combined mode (broker and
 * controller, as {@code config/server.properties} of the Kafka distribution), storage formatted
 * with Kafka's own {@link Formatter} (what {@code kafka-storage.sh format} runs) unless it already
 * is (a restart after a kill keeps its data), then {@link KafkaRaftServer}. It prints
 * {@code READY} on stdout once an admin client sees the broker, and stops when its stdin closes
 * (the test JVM ended or asked it to stop), so that no broker outlives its test.
 *
 * <p>Arguments: {@code <dataDir> <clusterId> <port> <controllerPort> [key=value ...]} (extra
 * broker settings).
 */
public final class BrokerMain {

    private BrokerMain() {
    }

    public static void main(String[] args) throws Exception {
        Path data = Path.of(args[0]);
        String clusterId = args[1];
        int port = Integer.parseInt(args[2]);
        int controllerPort = Integer.parseInt(args[3]);
        Properties p = settings(data, port, controllerPort);
        for (int i = 4; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            p.setProperty(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        PrintStream out = System.out;
        Path logs = data.resolve("logs");
        Files.createDirectories(logs);
        new Formatter().setPrintStream(new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8))
                .setSupportedFeatures(Feature.PRODUCTION_FEATURES).setNodeId(1).setClusterId(clusterId)
                .setDirectories(List.of(logs.toString())).setMetadataLogDirectory(logs.toString())
                .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION).setControllerListenerName("CONTROLLER")
                .setIgnoreFormatted(true).run();
        KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(p, false), Time.SYSTEM);
        server.startup();
        awaitBroker("127.0.0.1:" + port);
        out.println("READY");
        out.flush();
        waitForEof(System.in);
        server.shutdown();
        server.awaitShutdown();
        System.exit(0);
    }

    private static Properties settings(Path data, int port, int controllerPort) {
        Properties p = new Properties();
        p.putAll(Map.ofEntries(
                Map.entry("process.roles", "broker,controller"),
                Map.entry("node.id", "1"),
                Map.entry("controller.quorum.voters", "1@127.0.0.1:" + controllerPort),
                Map.entry("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort),
                Map.entry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port),
                Map.entry("controller.listener.names", "CONTROLLER"),
                Map.entry("inter.broker.listener.name", "PLAINTEXT"),
                Map.entry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"),
                Map.entry("log.dirs", data.resolve("logs").toString()),
                // A missing topic must be an error the event log reports, never silently created.
                Map.entry("auto.create.topics.enable", "false"),
                Map.entry("num.partitions", "1"),
                Map.entry("offsets.topic.replication.factor", "1"),
                Map.entry("offsets.topic.num.partitions", "1"),
                Map.entry("transaction.state.log.replication.factor", "1"),
                Map.entry("transaction.state.log.min.isr", "1"),
                Map.entry("transaction.state.log.num.partitions", "1"),
                Map.entry("share.coordinator.state.topic.replication.factor", "1"),
                Map.entry("share.coordinator.state.topic.min.isr", "1"),
                Map.entry("group.initial.rebalance.delay.ms", "0"),
                Map.entry("log.retention.check.interval.ms", "1000"),
                Map.entry("log.cleaner.backoff.ms", "500")));
        return p;
    }

    /** Bounded: the parent's start timeout ends this JVM anyway. */
    private static void awaitBroker(String bootstrap) throws Exception {
        Properties c = new Properties();
        c.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(c)) {
            admin.describeCluster().nodes().get(60, TimeUnit.SECONDS);
        }
    }

    private static void waitForEof(InputStream in) {
        try {
            while (in.read() >= 0) {
                // the parent writes nothing; any byte is ignored
            }
        } catch (IOException e) {
            // the pipe broke: the parent is gone
        }
    }
}
