package io.kproxy.engine;

import static io.kproxy.engine.EngineHarness.service;
import static io.kproxy.engine.EngineHarness.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncKind;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import reactor.core.scheduler.Schedulers;

/**
 * chaos/crash-mid-apply.md: the journal never claims a sync that did not complete, and a proxy
 * that died in the middle of an apply reprograms everything from scratch when it comes back
 * (the kernel holds the old or the new ruleset, never a mix: a transaction is atomic; the full
 * sync replaces whichever it is).
 */
class CrashMidApplyChaosTest {

    @Test
    void anInterruptedSyncIsNeverRecordedAndTheRestartSyncsFullyFromScratch() throws Exception {
        EngineHarness h = new EngineHarness();
        CountDownLatch inApply = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        h.backend.failure = tx -> {
            if (tx.text().contains("ns/b:p")) {
                inApply.countDown();
                try {
                    never.await(); // the process "dies" here: the apply never returns
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return Optional.empty();
        };
        // Real threads for the sync (it blocks); the fold stays on virtual time.
        Engine crashed = Engine.start(new Engine.Wiring(h.log, h.backend, EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30),
                10_000), h.registry, h.clock, h.vts, Schedulers.newSingle("crashing-sync", true), h.vts, Recorder.inline()));
        h.bootstrap();
        await().atMost(Duration.ofSeconds(10)).until(() -> h.events(SyncApplied.class).size() == 1);
        h.append(service("b", "172.30.0.2").observed(), slice("b", "10.0.1.2").observed());
        inApply.await();
        long recordedBefore = h.events(SyncApplied.class).size();
        assertThat(recordedBefore).as("only the first sync completed").isEqualTo(1);

        // Restart on the same log, with a fresh kernel port (whatever the kernel holds is unknown).
        FakeBackend fresh = new FakeBackend();
        try (EngineHarness restarted = new EngineHarness(h.log)) {
            restarted.backend = fresh;
            restarted.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            restarted.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000));
            assertThat(fresh.applied).hasSize(1);
            assertThat(fresh.applied.getFirst().kind()).isEqualTo(SyncKind.FULL);
            assertThat(fresh.applied.getFirst().text()).startsWith("flush").contains("ns/a:p", "ns/b:p");
            assertThat(restarted.events(SyncApplied.class).getLast().generation()).isEqualTo(1);
        } finally {
            never.countDown();
            crashed.close(Duration.ofSeconds(5));
            h.close();
        }
    }
}
