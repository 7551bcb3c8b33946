package io.kproxy.config;

import java.time.Duration;
import java.util.List;

/**
 * {@code kproxy}: what upstream's configuration lacks.
 *
 * @param journalDir       where the local journal lives
 * @param fsyncWindow      group-commit window: appends wait at most this long to share an fsync
 * @param snapshotInterval records between two state snapshots
 * @param retention        how much history the journal keeps
 * @param eventLog         which event log to use
 * @param serviceCIDRs     the cluster's service CIDRs (nftables drops traffic to unallocated
 *                         addresses in them); empty when unknown
 * @param adminAddress     the local admin endpoint for rollback/resume (loopback only)
 */
public record KproxyConfig(String journalDir, Duration fsyncWindow, long snapshotInterval, RetentionConfig retention,
        EventLogConfig eventLog, List<String> serviceCIDRs, String adminAddress) {

    public KproxyConfig {
        serviceCIDRs = List.copyOf(serviceCIDRs);
    }

    /** Journal retention: by age and by total size; never past the newest snapshot. */
    public record RetentionConfig(Duration maxAge, long maxBytes) {
    }

    /** The event log: {@code local} (the journal) or {@code kafka}. */
    public record EventLogConfig(EventLogType type, KafkaConfig kafka) {
    }

    public enum EventLogType {
        LOCAL,
        KAFKA
    }

    /** Kafka mode: the topic a cluster-wide recorder appends to and node agents consume. */
    public record KafkaConfig(String bootstrapServers, String topic, String clientId) {
    }
}
