package io.kproxy.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Upstream's health semantics with a fake clock ({@code pkg/proxy/healthcheck/healthcheck_test.go}):
 * healthy while starting up, unhealthy once a queued change is older than the timeout, node
 * eligibility on {@code /healthz} only; plus kproxy's API-server signal on {@code /healthz} only.
 */
class ProxyHealthTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");
    private final EngineClock clock = new EngineClock() {
        @Override
        public Instant now() {
            return now;
        }

        @Override
        public long nanoTime() {
            return now.toEpochMilli() * 1_000_000;
        }
    };
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ProxyHealth health = new ProxyHealth(clock, TIMEOUT, new ProxyMetrics(registry, "nftables", new PendingChanges()));

    private void advance(long seconds) {
        now = now.plusSeconds(seconds);
    }

    @Test
    void healthyWhileStartingUpEvenWithALateQueuedChange() {
        health.queuedUpdate();
        advance(120);
        assertThat(health.healthz().status()).isEqualTo(200);
        assertThat(health.isHealthy()).isTrue();
    }

    @Test
    void unhealthyOnceAQueuedChangeIsOlderThanTheTimeoutAndHealthyAgainAfterAnUpdate() {
        health.updated();
        advance(10);
        health.queuedUpdate();
        advance(59);
        assertThat(health.healthz().status()).isEqualTo(200);
        advance(1);
        ProxyHealth.Response h = health.healthz();
        assertThat(h.status()).isEqualTo(503);
        // lastUpdated is the last real update when unhealthy, "now" when healthy (upstream's compatibility rule).
        assertThat(h.body()).isEqualTo("{\"lastUpdated\": \"2026-01-01 00:00:00 +0000 UTC\",\"currentTime\": "
                + "\"2026-01-01 00:01:10 +0000 UTC\", \"nodeEligible\": true}");
        assertThat(health.livez().status()).isEqualTo(503);
        assertThat(health.isHealthy()).isFalse();
        health.updated();
        assertThat(health.healthz().status()).isEqualTo(200);
        assertThat(health.livez().body()).isEqualTo("{\"lastUpdated\": \"2026-01-01 00:01:10 +0000 UTC\",\"currentTime\": "
                + "\"2026-01-01 00:01:10 +0000 UTC\"}");
    }

    @Test
    void onlyTheOldestQueuedChangeCounts() {
        health.updated();
        health.queuedUpdate();
        advance(40);
        health.queuedUpdate();
        advance(20);
        assertThat(health.isHealthy()).isFalse();
    }

    @Test
    void anIneligibleNodeFailsHealthzButNotLivez() {
        health.nodeEligible(false);
        ProxyHealth.Response h = health.healthz();
        assertThat(h.status()).isEqualTo(503);
        assertThat(h.body()).endsWith("\"nodeEligible\": false}").contains("\"lastUpdated\": \"0001-01-01 00:00:00 +0000 UTC\"");
        assertThat(health.livez().status()).isEqualTo(200);
        health.nodeEligible(true);
        assertThat(health.healthz().status()).isEqualTo(200);
    }

    @Test
    void aLostApiServerFailsHealthzAfterTheTimeoutOnly() {
        health.updated();
        health.sourceConnected(false);
        advance(59);
        assertThat(health.healthz().status()).isEqualTo(200);
        advance(1);
        assertThat(health.healthz().status()).isEqualTo(503);
        assertThat(health.livez().status()).isEqualTo(200);
        assertThat(health.isHealthy()).isTrue();
        health.sourceConnected(false); // still lost: the clock keeps running from the first loss
        health.sourceConnected(true);
        assertThat(health.healthz().status()).isEqualTo(200);
    }

    @Test
    void answersAreCountedByCode() {
        health.healthz();
        health.nodeEligible(false);
        health.healthz();
        health.livez();
        String scrape = registry.scrape();
        assertThat(scrape).contains("kubeproxy_proxy_healthz_total{code=\"200\"} 1.0", "kubeproxy_proxy_healthz_total{code=\"503\"} 1.0",
                "kubeproxy_proxy_livez_total{code=\"200\"} 1.0", "kubeproxy_proxy_livez_total{code=\"503\"} 0.0");
    }
}
