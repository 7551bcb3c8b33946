package io.kproxy.app;

import io.kproxy.journal.kafka.KafkaLogException;
import io.kproxy.journal.kafka.KafkaLogOptions;
import io.kproxy.journal.kafka.Topics;
import io.kproxy.model.NodeName;
import io.kproxy.recorder.ClusterRecorder;
import io.kproxy.recorder.RecorderOptions;
import io.kproxy.source.kube.KubeSource;
import io.kproxy.source.kube.KubeSourceOptions;
import io.kproxy.source.kube.LeaseElection;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kproxy record}: one replica of the cluster's recorder (docs/kafka.md, "The recorder";
 * deploy/recorder.yaml runs two). Checks the API client's settings and the topic (exit 2 for a
 * bad flag or kubeconfig, 1 for a broker that cannot be reached, a missing topic or a topic of
 * more than one partition), joins the Lease election and records while it leads, until SIGTERM
 * (the Lease is released on the way out). Wiring only: {@link ClusterRecorder} does the work.
 */
@Command(name = "record", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Record the cluster's Services, EndpointSlices, Nodes and ServiceCIDRs to a Kafka topic (one leader per cluster)."},
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:stopped by a signal", "1:the broker cannot be reached, the topic is missing or has more than one partition",
                "2:a bad flag or kubeconfig"})
final class RecordCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(RecordCommand.class);

    @Spec
    CommandSpec spec;

    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "kubeconfig; without it and --master, the in-cluster service account.")
    String kubeconfig = "";

    @Option(names = "--master", paramLabel = "URL", description = "The API server's address (overrides the kubeconfig's).")
    String master = "";

    @Option(names = "--kafka-bootstrap-servers", required = true, paramLabel = "HOST:PORT[,HOST:PORT]", description = "The Kafka brokers.")
    String bootstrapServers;

    @Option(names = "--topic", required = true, paramLabel = "TOPIC", description = "The cluster's event log topic (and TOPIC.snapshots).")
    String topic;

    @Option(names = "--cluster", required = true, paramLabel = "NAME",
            description = "The cluster's identity: every record carries it; agents refuse records of another.")
    String cluster;

    @Option(names = "--lease-namespace", paramLabel = "NS", description = "The Lease's namespace (default: POD_NAMESPACE, else kube-system).")
    String leaseNamespace;

    @Option(names = "--lease-name", paramLabel = "NAME", description = "The Lease's name (default kproxy-recorder).")
    String leaseName = "kproxy-recorder";

    @Option(names = "--identity", paramLabel = "NAME", description = "This replica's holder identity (default: POD_NAME, else the host name).")
    String identity;

    @Option(names = "--snapshot-interval", paramLabel = "RECORDS", description = "Records between two snapshots of the topic's objects (default 10000).")
    long snapshotEvery = 10_000;

    @Option(names = "--create-topics", paramLabel = "REPLICAS",
            description = "Create both topics with this many replicas if they do not exist (docs/kafka.md has the settings).")
    Short createTopics;

    @Option(names = "--retention", paramLabel = "DURATION", description = "With --create-topics: the log topic's retention.ms (default 7d).")
    Duration retention = Duration.ofDays(7);

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        // One line per decision at INFO (leading, stepping down, fenced), as the agent logs:
        // without this only warnings would show, and a replica's role could not be seen in its log.
        Logging.configure("text", 0);
        String me = Optional.ofNullable(identity).or(() -> Optional.ofNullable(System.getenv("POD_NAME"))).orElseGet(RecordCommand::host);
        String ns = Optional.ofNullable(leaseNamespace).or(() -> Optional.ofNullable(System.getenv("POD_NAMESPACE"))).orElse("kube-system");
        RecorderOptions options;
        try {
            KubeSourceOptions client = KubeSourceOptions.defaults(new NodeName(me.toLowerCase(Locale.ROOT))).withKubeconfig(kubeconfig)
                    .withMasterUrl(master);
            LOG.info("decision=client-config-checked {}", KubeSource.checkClientConfig(client));
            KafkaLogOptions log = new KafkaLogOptions(bootstrapServers, topic, cluster, "kproxy-recorder-" + me,
                    RecorderOptions.transactionalId(cluster), Duration.ofSeconds(10), Clock.systemUTC());
            options = new RecorderOptions(client, log, new LeaseElection.Settings(ns, leaseName, me, Duration.ofSeconds(15),
                    Duration.ofSeconds(10), Duration.ofSeconds(2)), snapshotEvery, Duration.ofSeconds(10));
        } catch (IllegalArgumentException e) { // ClientConfigException and InvalidValueException among them
            err.println("kproxy record: " + e.getMessage());
            err.flush();
            return 2;
        }
        try {
            if (createTopics != null) {
                Topics.create(options.topic(), createTopics, retention.toMillis());
            } else {
                Topics.check(options.topic());
            }
        } catch (KafkaLogException e) {
            err.println("kproxy record: " + e.getMessage());
            err.flush();
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        ClusterRecorder recorder = ClusterRecorder.start(options);
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("kproxy-shutdown").unstarted(() -> {
            LOG.info("decision=stop reason=signal");
            recorder.close();
            stopped.countDown();
        }));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    private static String host() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (java.io.IOException e) {
            return "kproxy-recorder";
        }
    }
}
