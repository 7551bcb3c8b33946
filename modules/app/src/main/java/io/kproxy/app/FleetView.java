package io.kproxy.app;

import io.kproxy.config.ConfigTrees;
import io.kproxy.config.ProxyConfig;
import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.Envelope;
import io.kproxy.history.History;
import io.kproxy.journal.LogPages;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.journal.kafka.KafkaEventLog;
import io.kproxy.journal.kafka.KafkaLogException;
import io.kproxy.journal.kafka.KafkaLogOptions;
import io.kproxy.journal.kafka.MirroredOffsets;
import io.kproxy.journal.kafka.NodeFacts;
import io.kproxy.journal.kafka.TopicImage;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.Snapshot;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * Fleet time travel (docs/kafka.md, "Fleet time travel"): {@code render|diff|audit
 * --kafka-bootstrap-servers … --topic … --cluster … --node NAME} answer for any node, one that no
 * longer exists included, from the cluster's topic alone. The node's facts
 * ({@link NodeFacts}) are read into a log in memory with their original times, after a
 * {@code ConfigRecorded} of the default configuration for that node in {@code --mode} (the topic
 * holds no node's configuration); when retention removed the topic's start, the newest snapshot's
 * objects come first. What the node would have programmed is the desired state of those
 * records ({@link History#desiredAt}): the topic holds no node's syncs. Picocli mixin; blocks on
 * the broker while it reads.
 */
final class FleetView {

    @Option(names = "--kafka-bootstrap-servers", paramLabel = "HOST:PORT[,HOST:PORT]",
            description = "Answer from the cluster's Kafka topic instead of a journal (with --topic, --cluster, --node).")
    String bootstrapServers;

    @Option(names = "--topic", paramLabel = "TOPIC", description = "(--kafka-bootstrap-servers) The cluster's event log topic.")
    String topic;

    @Option(names = "--cluster", paramLabel = "NAME", description = "(--kafka-bootstrap-servers) The cluster identity its records carry.")
    String cluster;

    boolean given() {
        return bootstrapServers != null;
    }

    /**
     * What a time-travel command answers from: the journal, or with
     * {@code --kafka-bootstrap-servers} {@code node}'s facts on the topic (exactly one of the two).
     */
    History open(CommandSpec spec, Path journal, String node, String mode, PrintWriter err, String command) {
        if (given()) {
            if (journal != null || node == null) {
                throw new ParameterException(spec.commandLine(), "--kafka-bootstrap-servers needs --node and takes no --journal");
            }
            NodeName name;
            try {
                name = new NodeName(node);
            } catch (InvalidValueException e) {
                throw new ParameterException(spec.commandLine(), "--node: " + e.getMessage());
            }
            return open(name, mode == null ? "nftables" : mode);
        }
        if (journal == null) {
            throw new ParameterException(spec.commandLine(), "Missing required option: '--journal=DIR' or '--kafka-bootstrap-servers'");
        }
        if (node != null) {
            throw new ParameterException(spec.commandLine(), "--node goes with --kafka-bootstrap-servers (a journal is one node's)");
        }
        History h = History.open(journal).withProgress(HistoryExits.progress(err, command));
        HistoryExits.warnings(err, command, h);
        return h;
    }

    /** A topic that cannot be read: exit 5, as a journal that cannot be. */
    static int refused(PrintWriter err, String command, KafkaLogException e) {
        err.println("kproxy " + command + ": " + Terminal.text(e.getMessage()));
        err.flush();
        return HistoryExits.UNREADABLE;
    }

    /** Reads the node's facts from the topic into a history in memory. */
    History open(NodeName node, String mode) {
        if (topic == null || cluster == null) {
            throw new IllegalArgumentException("--kafka-bootstrap-servers needs --topic and --cluster");
        }
        KafkaLogOptions o = new KafkaLogOptions(bootstrapServers, topic, cluster, "kproxy-time-travel", "", Duration.ofSeconds(10),
                Clock.systemUTC());
        Stamp clock = new Stamp();
        MemoryEventLog view = new MemoryEventLog(clock);
        try (KafkaEventLog log = KafkaEventLog.open(o)) {
            long first = log.firstOffset();
            List<Envelope> page0 = log.read(first, 1);
            clock.at = page0.isEmpty() ? Instant.EPOCH : page0.getFirst().recordedAt();
            ProxyConfig config = ConfigTrees.fromTree(ConfigTrees.toTree(ConfigTrees.defaults()).with("mode", Json.of(mode))
                    .with("hostnameOverride", Json.of(node.value())));
            view.append("kproxy/time-travel", new ConfigRecorded(node, ConfigTrees.toTree(config))).join();
            long from = first;
            if (first > 0) {
                Optional<Snapshot> snap = log.snapshotAtOrBefore(Long.MAX_VALUE);
                if (snap.isPresent()) {
                    TopicImage image = TopicImage.decode(snap.get().offset(), snap.get().data());
                    append(view, node, image.events(), MirroredOffsets.source(image.offset(), TopicImage.SNAPSHOT_SOURCE));
                    from = image.offset() + 1;
                }
            }
            LogPages pages = LogPages.refusing(log, from, Long.MAX_VALUE, 1024);
            while (pages.hasNext()) {
                for (Envelope e : pages.next()) {
                    if (NodeFacts.forNode(node, e.event())) {
                        clock.at = e.recordedAt();
                        view.append(MirroredOffsets.source(e.offset(), e.source()), e.event()).join();
                    }
                }
            }
        }
        return History.of(view);
    }

    private static void append(EventLog view, NodeName node, List<ClusterEvent> events, String source) {
        List<EventLog.Draft> drafts = new ArrayList<>();
        for (ClusterEvent e : events) {
            if (NodeFacts.forNode(node, e)) {
                drafts.add(new EventLog.Draft(source, e));
            }
        }
        view.append(drafts).join();
    }

    /** Stamps each record of the view with its time on the topic. */
    private static final class Stamp extends Clock {
        Instant at = Instant.EPOCH;

        @Override
        public ZoneId getZone() {
            return ZoneId.of("UTC");
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return at;
        }
    }
}
