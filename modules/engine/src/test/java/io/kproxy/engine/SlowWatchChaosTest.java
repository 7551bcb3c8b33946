package io.kproxy.engine;

import static io.kproxy.engine.EngineHarness.slice;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * chaos/slow-watch.md: a change that reaches the proxy late (a slow watch, a congested API
 * server) is programmed as soon as it arrives, and the lag is visible where operators look for
 * it: {@code kubeproxy_network_programming_duration_seconds} measures from the EndpointSlice
 * controller's trigger time, not from arrival. The proxy itself is not the one lagging, so it
 * stays healthy.
 */
class SlowWatchChaosTest {

    private final EngineHarness h = new EngineHarness();

    @AfterEach
    void tearDown() {
        h.close();
    }

    @Test
    void aLateChangeIsProgrammedAtOnceAndItsLagIsMeasuredFromTheTriggerTime() {
        h.start(EngineHarness.options(Duration.ofSeconds(1), Duration.ofSeconds(30), 10_000));
        h.bootstrap();
        h.advance(Duration.ofMinutes(2));
        Instant trigger = h.clock.now().minusSeconds(42);
        int before = h.backend.applied.size();
        h.append(slice("a", "10.0.1.7").triggerTime(trigger.toString()).resourceVersion("2").observed());
        assertThat(h.backend.applied).hasSize(before + 1);
        String scrape = h.engine.metrics().scrape();
        assertThat(scrape).contains("kubeproxy_network_programming_duration_seconds_bucket{ip_family=\"IPv4\",le=\"41.0\"} 0")
                .contains("kubeproxy_network_programming_duration_seconds_bucket{ip_family=\"IPv4\",le=\"42.0\"} 1");
        assertThat(h.engine.health().healthz().status()).isEqualTo(200);
    }
}
