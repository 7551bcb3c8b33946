package io.kproxy.recorder;

import io.kproxy.journal.kafka.KafkaLogOptions;
import io.kproxy.source.kube.KubeSourceOptions;
import io.kproxy.source.kube.LeaseElection;
import java.time.Duration;

/**
 * What {@code kproxy record} runs with.
 *
 * @param client           the API server and credentials (the source's options; its node name names this replica)
 * @param topic            the cluster's log; its transactional id is shared by every replica (fencing)
 * @param lease            the Lease the replicas compete for
 * @param snapshotEvery    records between two snapshots of the topic's objects
 * @param snapshotPeriod   how often the leader looks whether a snapshot is due
 */
public record RecorderOptions(KubeSourceOptions client, KafkaLogOptions topic, LeaseElection.Settings lease, long snapshotEvery,
        Duration snapshotPeriod) {

    public RecorderOptions {
        if (client == null || topic == null || lease == null || snapshotPeriod == null) {
            throw new IllegalArgumentException("client, topic, lease and snapshotPeriod are required");
        }
        if (topic.transactionalId().isEmpty()) {
            throw new IllegalArgumentException("the recorder's topic options need the replicas' shared transactional id");
        }
        if (snapshotEvery < 1) {
            throw new IllegalArgumentException("snapshotEvery must be positive: " + snapshotEvery);
        }
    }

    /** The transactional id every replica of a cluster's recorder shares: {@code kproxy-recorder-<cluster>}. */
    public static String transactionalId(String cluster) {
        return "kproxy-recorder-" + cluster;
    }
}
