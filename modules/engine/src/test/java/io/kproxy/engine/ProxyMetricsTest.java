package io.kproxy.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.SyncKind;
import io.kproxy.model.IpFamily;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The exposition carries upstream's names, types, labels and buckets ({@code pkg/proxy/metrics/metrics.go},
 * docs/upstream-behaviour.md §1.7): what a dashboard built for kube-proxy queries.
 */
class ProxyMetricsTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final PendingChanges pending = new PendingChanges();
    private final ProxyMetrics metrics = new ProxyMetrics(registry, "nftables", pending);

    /** {@code # TYPE} lines of the scrape: name to type. */
    private Map<String, String> types() {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = Pattern.compile("^# TYPE (\\S+) (\\S+)$", Pattern.MULTILINE).matcher(metrics.scrape());
        while (m.find()) {
            out.put(m.group(1), m.group(2));
        }
        return out;
    }

    @Test
    void upstreamNamesAndTypes() {
        assertThat(types()).containsAllEntriesOf(Map.ofEntries(
                Map.entry("kubeproxy_sync_proxy_rules_duration_seconds", "histogram"),
                Map.entry("kubeproxy_sync_full_proxy_rules_duration_seconds", "histogram"),
                Map.entry("kubeproxy_sync_partial_proxy_rules_duration_seconds", "histogram"),
                Map.entry("kubeproxy_network_programming_duration_seconds", "histogram"),
                Map.entry("kubeproxy_sync_proxy_rules_last_timestamp_seconds", "gauge"),
                Map.entry("kubeproxy_sync_proxy_rules_last_queued_timestamp_seconds", "gauge"),
                Map.entry("kubeproxy_sync_proxy_rules_endpoint_changes_pending", "gauge"),
                Map.entry("kubeproxy_sync_proxy_rules_service_changes_pending", "gauge"),
                Map.entry("kubeproxy_sync_proxy_rules_endpoint_changes_total", "counter"),
                Map.entry("kubeproxy_sync_proxy_rules_service_changes_total", "counter"),
                Map.entry("kubeproxy_sync_proxy_rules_no_local_endpoints_total", "gauge"),
                Map.entry("kubeproxy_proxy_healthz_total", "counter"),
                Map.entry("kubeproxy_proxy_livez_total", "counter"),
                Map.entry("kubeproxy_sync_proxy_rules_nftables_sync_failures_total", "counter"),
                Map.entry("kubeproxy_sync_proxy_rules_nftables_cleanup_failures_total", "counter")));
        // No doubled suffixes and no renamed gauge.
        assertThat(types().keySet()).noneMatch(n -> n.endsWith("_total_total")).doesNotContain("kubeproxy_sync_proxy_rules_no_local_endpoints");
    }

    @Test
    void iptablesModeRegistersItsOwnFailureCounter() {
        ProxyMetrics ipt = new ProxyMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), "iptables", pending);
        assertThat(ipt.scrape()).contains("# TYPE kubeproxy_sync_proxy_rules_iptables_restore_failures_total counter")
                .doesNotContain("nftables_sync_failures");
    }

    @Test
    void syncHistogramsHaveUpstreamsExponentialBucketsPerFamily() {
        metrics.syncApplied(SyncKind.PARTIAL, Duration.ofMillis(3), Instant.parse("2026-01-01T00:00:00Z"));
        String s = metrics.scrape();
        List<String> les = bucketBounds(s, "kubeproxy_sync_proxy_rules_duration_seconds", "IPv4");
        assertThat(les).containsExactly("0.001", "0.002", "0.004", "0.008", "0.016", "0.032", "0.064", "0.128", "0.256", "0.512", "1.024",
                "2.048", "4.096", "8.192", "16.384", "+Inf");
        assertThat(s).contains("kubeproxy_sync_proxy_rules_duration_seconds_bucket{ip_family=\"IPv6\",le=\"0.004\"} 1")
                .contains("kubeproxy_sync_partial_proxy_rules_duration_seconds_count{ip_family=\"IPv4\"} 1")
                .contains("kubeproxy_sync_full_proxy_rules_duration_seconds_count{ip_family=\"IPv4\"} 0")
                .contains("kubeproxy_sync_proxy_rules_last_timestamp_seconds{ip_family=\"IPv4\"} 1.7672256E9");
    }

    @Test
    void networkProgrammingHasUpstreamsMergedBucketsStartingAtZero() {
        metrics.networkProgramming(IpFamily.IPV4, Duration.ofMillis(300));
        String s = metrics.scrape();
        List<String> les = bucketBounds(s, "kubeproxy_network_programming_duration_seconds", "IPv4");
        assertThat(les).hasSize(1 + 2 + 59 + 12 + 7 + 1);
        assertThat(les.subList(0, 5)).containsExactly("0.0", "0.25", "0.5", "1.0", "2.0");
        assertThat(les.subList(les.size() - 3, les.size())).containsExactly("270.0", "300.0", "+Inf");
        assertThat(s).contains("kubeproxy_network_programming_duration_seconds_bucket{ip_family=\"IPv4\",le=\"0.25\"} 0")
                .contains("kubeproxy_network_programming_duration_seconds_bucket{ip_family=\"IPv4\",le=\"0.5\"} 1")
                .contains("kubeproxy_network_programming_duration_seconds_count{ip_family=\"IPv6\"} 0");
    }

    @Test
    void pendingGaugesFollowThePendingChanges() {
        pending.add(new PendingChanges.Change(5, true, java.util.Optional.empty()));
        pending.add(new PendingChanges.Change(6, false, java.util.Optional.empty()));
        pending.add(new PendingChanges.Change(7, false, java.util.Optional.empty()));
        assertThat(metrics.scrape()).contains("kubeproxy_sync_proxy_rules_service_changes_pending 1.0")
                .contains("kubeproxy_sync_proxy_rules_endpoint_changes_pending 2.0");
        pending.drainUpTo(6);
        assertThat(metrics.scrape()).contains("kubeproxy_sync_proxy_rules_service_changes_pending 0.0")
                .contains("kubeproxy_sync_proxy_rules_endpoint_changes_pending 1.0");
    }

    private static List<String> bucketBounds(String scrape, String name, String family) {
        Matcher m = Pattern.compile("^" + name + "_bucket\\{ip_family=\"" + family + "\",le=\"([^\"]+)\"}", Pattern.MULTILINE).matcher(scrape);
        List<String> out = new java.util.ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    @Test
    void bucketConstantsMatchUpstreamsGenerators() {
        assertThat(ProxyMetrics.SYNC_BUCKETS).hasSize(15).startsWith(0.001).endsWith(16.384);
        assertThat(Arrays.stream(ProxyMetrics.PROGRAMMING_BUCKETS).filter(b -> b >= 60 && b < 120).count()).isEqualTo(12);
    }
}
