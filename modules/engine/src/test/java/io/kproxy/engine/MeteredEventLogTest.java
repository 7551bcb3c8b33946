package io.kproxy.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.journal.MemoryEventLog;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

/** kproxy's journal metrics, whatever log is wrapped. */
class MeteredEventLogTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final MemoryEventLog memory = new MemoryEventLog();

    @Test
    void countsAndTimesAppendsAndReportsSnapshots() {
        MeteredEventLog log = new MeteredEventLog(memory, registry, EngineClock.system(), () -> 4096);
        log.append("t", new SourceSynced(ResourceKind.SERVICE, "1")).join();
        log.append("t", new SourceSynced(ResourceKind.NODE, "1")).join();
        log.storeSnapshot(1, new byte[] {1, 2, 3});
        String s = registry.scrape();
        assertThat(s).contains("kproxy_journal_appended_records_total 2.0", "kproxy_journal_append_duration_seconds_count 2",
                "kproxy_journal_next_offset 2.0", "kproxy_journal_size_bytes 4096.0", "kproxy_journal_snapshot_offset 1.0",
                "kproxy_journal_snapshot_bytes 3.0", "kproxy_journal_records_since_snapshot 0.0");
        assertThat(log.snapshotAtOrBefore(5)).isPresent();
    }

    @Test
    void picksUpTheNewestSnapshotOfAnExistingLogAndCountsRefusals() {
        memory.append("t", new SourceSynced(ResourceKind.SERVICE, "1")).join();
        memory.storeSnapshot(0, new byte[] {9});
        memory.append("t", new SourceSynced(ResourceKind.NODE, "1")).join();
        MeteredEventLog log = new MeteredEventLog(memory, registry, EngineClock.system(), () -> -1);
        assertThat(registry.scrape()).contains("kproxy_journal_snapshot_offset 0.0", "kproxy_journal_records_since_snapshot 1.0",
                "kproxy_journal_size_bytes NaN");
        log.close();
        assertThatThrownBy(() -> log.append("t", new SourceSynced(ResourceKind.NODE, "2")).join()).hasMessageContaining("closed");
        assertThat(registry.scrape()).contains("kproxy_journal_append_failures_total{retryable=\"false\"} 1.0");
    }
}
