package io.kproxy.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code kproxy}: what upstream's configuration lacks. Immutable; no null components.
 *
 * @param journalDir       where the local journal lives (default {@code /var/lib/kproxy/journal})
 * @param fsyncWindow      group-commit window: appends wait at most this long to share an fsync (default 2ms; more than 0, at most 1s)
 * @param snapshotInterval records between two state snapshots (default 10000, at least 100)
 * @param retention        how much history the journal keeps
 * @param eventLog         which event log to use
 * @param serviceCIDRs     the cluster's service CIDRs (nftables drops traffic to unallocated
 *                         addresses in them); empty when unknown
 * @param adminSocket      the admin endpoint for rollback/resume: a Unix domain socket that
 *                         only the agent's user (root on a node) can reach, an absolute path
 *                         (default {@code /run/kproxy/admin.sock}; its directory is made 0700)
 * @param adminGroup       a group (name or numeric gid) whose processes may use the admin socket
 *                         besides root: the socket becomes 0660 with that group, and a peer is
 *                         admitted when its effective gid is it; {@code ""} (default) for root only
 */
public record KproxyConfig(String journalDir, Duration fsyncWindow, long snapshotInterval, RetentionConfig retention,
        EventLogConfig eventLog, List<String> serviceCIDRs, String adminSocket, String adminGroup) {

    public KproxyConfig {
        Objects.requireNonNull(journalDir, "journalDir");
        Objects.requireNonNull(fsyncWindow, "fsyncWindow");
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(eventLog, "eventLog");
        serviceCIDRs = List.copyOf(serviceCIDRs);
        Objects.requireNonNull(adminSocket, "adminSocket");
        Objects.requireNonNull(adminGroup, "adminGroup");
    }

    /** Without an admin group (root only). */
    public KproxyConfig(String journalDir, Duration fsyncWindow, long snapshotInterval, RetentionConfig retention, EventLogConfig eventLog,
            List<String> serviceCIDRs, String adminSocket) {
        this(journalDir, fsyncWindow, snapshotInterval, retention, eventLog, serviceCIDRs, adminSocket, "");
    }

    /** Where the admin socket is unless configured otherwise. */
    public static final String DEFAULT_ADMIN_SOCKET = "/run/kproxy/admin.sock";

    /** Journal retention: by age (default 168h) and by total size (default 1 GiB); never past the newest snapshot. */
    public record RetentionConfig(Duration maxAge, long maxBytes) {
        public RetentionConfig {
            Objects.requireNonNull(maxAge, "maxAge");
        }
    }

    /** The event log: {@code local} (the journal, default) or {@code kafka}. */
    public record EventLogConfig(EventLogType type, KafkaConfig kafka) {
        public EventLogConfig {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(kafka, "kafka");
        }
    }

    /** {@code eventLog.type}. */
    public enum EventLogType {
        LOCAL("local"),
        KAFKA("kafka");

        private final String apiName;

        EventLogType(String apiName) {
            this.apiName = apiName;
        }

        /** The spelling in configuration files. */
        public String apiName() {
            return apiName;
        }

        /** The type spelled {@code name} exactly, if any. */
        public static Optional<EventLogType> fromApiName(String name) {
            for (EventLogType t : values()) {
                if (t.apiName.equals(name)) {
                    return Optional.of(t);
                }
            }
            return Optional.empty();
        }
    }

    /**
     * Kafka mode: the topic a cluster-wide recorder appends to and node agents consume. Required
     * (non-empty) when {@code eventLog.type} is {@code kafka}; {@code ""} otherwise means unset.
     *
     * @param bootstrapServers comma-separated {@code host:port} list
     * @param topic            the topic name
     * @param clientId         the Kafka client id; {@code ""} lets the agent derive one
     * @param cluster          the Kubernetes cluster's identity the topic's records must carry
     *                         (docs/kafka.md, "Cluster identity"); required in Kafka mode
     */
    public record KafkaConfig(String bootstrapServers, String topic, String clientId, String cluster) {
        public KafkaConfig {
            Objects.requireNonNull(bootstrapServers, "bootstrapServers");
            Objects.requireNonNull(topic, "topic");
            Objects.requireNonNull(clientId, "clientId");
            Objects.requireNonNull(cluster, "cluster");
        }

        /** No Kafka settings. */
        public static final KafkaConfig UNSET = new KafkaConfig("", "", "", "");
    }
}
