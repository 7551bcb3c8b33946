package io.kproxy.engine;

import static io.kproxy.engine.EngineHarness.service;
import static io.kproxy.engine.EngineHarness.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.KernelException;
import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.Envelope;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncKind;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Rollback and resume through {@link DataplaneControl} on the engine's virtual time: the pinned
 * state is programmed in a full sync while live records keep folding, the journal holds the pin,
 * health and metrics say so, resume returns to the live state, a restart honours the pin, and
 * bad requests are refused before anything is appended.
 */
class PinTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final EngineHarness h = new EngineHarness();

    @AfterEach
    void tearDown() {
        h.close();
    }

    /** Runs a blocking control request on its own thread while virtual time moves, bounded. */
    private ControlAnswer run(Supplier<ControlAnswer> request) {
        CompletableFuture<ControlAnswer> f = CompletableFuture.supplyAsync(request);
        for (int i = 0; i < 600 && !f.isDone(); i++) {
            h.advanceMillis(100);
            Thread.onSpinWait();
        }
        return f.join();
    }

    private String lastApplied() {
        return h.backend.applied.stream().filter(a -> !a.text().isEmpty()).reduce((a, b) -> b).orElseThrow().text();
    }

    @Test
    void rollbackProgramsTheOldStateWhileJournalingContinuesAndResumeReturnsToLive() {
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000));
        long good = h.bootstrap();
        h.advanceMillis(100);
        String goodRules = h.backend.render(h.engine.state().node()).rulesetText();
        h.append(slice("a").resourceVersion("2").observed()); // the bad change: no endpoints
        h.advanceMillis(100);
        assertThat(lastApplied()).contains("add ns/a:p 172.30.0.1:80 -> []");

        ControlAnswer pinned = run(() -> h.engine.control().pin(new DataplaneControl.To.Offset(good), "bad rollout", WAIT));
        assertThat(pinned).isInstanceOf(ControlAnswer.Done.class);
        assertThat(pinned.message()).contains("pinned to the state at offset " + good).contains("full");
        assertThat(h.backend.applied.getLast().kind()).isEqualTo(SyncKind.FULL);
        assertThat(h.backend.applied.getLast().text()).contains("10.0.1.1:8080");
        SyncApplied pinnedSync = h.events(SyncApplied.class).getLast();
        assertThat(pinnedSync.uptoOffset()).as("a pinned sync reports the pinned offset").isEqualTo(good);
        assertThat(pinnedSync.rulesetHash()).isEqualTo(FakeBackend.sha256(goodRules));
        DataplanePinned record = h.events(DataplanePinned.class).getFirst();
        assertThat(record).isEqualTo(new DataplanePinned(good, "bad rollout"));
        assertThat(h.log.read(0, Integer.MAX_VALUE).stream().filter(e -> e.event() instanceof DataplanePinned).map(Envelope::source))
                .containsExactly(DataplaneControl.SOURCE);

        // Health and metrics say it; the status codes stay upstream's.
        ProxyHealth.Response healthz = h.engine.health().healthz();
        assertThat(healthz.status()).isEqualTo(200);
        assertThat(healthz.body()).endsWith("\"nodeEligible\": true, \"dataplanePinned\": true, \"pinnedToOffset\": " + good + "}");
        assertThat(h.engine.health().livez().body()).endsWith(", \"dataplanePinned\": true, \"pinnedToOffset\": " + good + "}");
        assertThat(h.engine.metrics().scrape()).contains("kproxy_dataplane_pinned 1.0").contains("kproxy_dataplane_pinned_offset " + good
                + ".0");
        DataplaneStatus status = h.engine.control().status();
        assertThat(status.pin()).hasValueSatisfying(p -> {
            assertThat(p.toOffset()).isEqualTo(good);
            assertThat(p.reason()).isEqualTo("bad rollout");
            assertThat(p.toTime()).isPresent();
        });

        // Journaling continues under the pin: live changes fold, the kernel keeps the pinned state.
        int appliedBefore = h.backend.applied.size();
        long live = h.append(service("b", "172.30.0.2").observed(), slice("b", "10.0.2.1").observed());
        h.advance(Duration.ofSeconds(5));
        assertThat(h.engine.state().offset()).isGreaterThanOrEqualTo(live);
        assertThat(h.engine.state().cluster().services()).hasSize(2);
        assertThat(h.backend.applied.subList(appliedBefore, h.backend.applied.size())).allMatch(a -> a.text().isEmpty());
        assertThat(h.engine.health().healthz().status()).as("a pinned proxy programming its pin is healthy").isEqualTo(200);

        ControlAnswer resumed = run(() -> h.engine.control().unpin("fixed upstream", WAIT));
        assertThat(resumed).isInstanceOf(ControlAnswer.Done.class);
        assertThat(resumed.message()).contains("resumed live state");
        assertThat(h.backend.applied.getLast().kind()).isEqualTo(SyncKind.FULL);
        assertThat(h.backend.applied.getLast().text()).contains("172.30.0.2").doesNotContain("10.0.1.1");
        assertThat(h.events(DataplaneUnpinned.class)).containsExactly(new DataplaneUnpinned("fixed upstream"));
        assertThat(h.events(SyncApplied.class).getLast().uptoOffset()).isGreaterThan(live);
        assertThat(h.engine.health().healthz().body()).endsWith("\"nodeEligible\": true}");
        assertThat(h.engine.metrics().scrape()).contains("kproxy_dataplane_pinned 0.0").contains("kproxy_dataplane_pinned_offset -1.0");
        assertThat(h.engine.control().status().pin()).isEmpty();
    }

    @Test
    void rollingBackAgainRePinsAndResumeWhenLiveIsRefused() {
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000));
        long first = h.bootstrap();
        long second = h.append(slice("a", "10.0.1.1", "10.0.1.2").resourceVersion("2").observed());
        h.append(slice("a").resourceVersion("3").observed());
        h.advanceMillis(100);
        ControlAnswer unpinned = h.engine.control().unpin("nothing to do", WAIT);
        assertThat(unpinned).isEqualTo(new ControlAnswer.Refused("not-pinned",
                "the dataplane is not pinned: it already programs the live state"));

        assertThat(run(() -> h.engine.control().pin(new DataplaneControl.To.Offset(second), "x", WAIT)))
                .isInstanceOf(ControlAnswer.Done.class);
        assertThat(lastApplied()).contains("10.0.1.2:8080");
        ControlAnswer again = run(() -> h.engine.control().pin(new DataplaneControl.To.Offset(first), "further back", WAIT));
        assertThat(again).isInstanceOf(ControlAnswer.Done.class);
        assertThat(again.message()).contains("re-pinned (was pinned to offset " + second + ")");
        assertThat(lastApplied()).contains("10.0.1.1:8080").doesNotContain("10.0.1.2");
        assertThat(h.backend.applied.getLast().kind()).isEqualTo(SyncKind.FULL);
        assertThat(h.events(DataplanePinned.class)).extracting(DataplanePinned::toOffset).containsExactly(second, first);
    }

    @Test
    void timesResolveToTheLastRecordAtOrBeforeThemAndBadOnesAreRefused() {
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000));
        Instant start = h.clock.now();
        h.advanceMillis(1_000);
        long good = h.bootstrap();
        h.advanceMillis(1_000);
        Instant between = h.clock.now();
        h.advanceMillis(1_000);
        h.append(slice("a").resourceVersion("2").observed());
        h.advanceMillis(100);
        long records = h.log.nextOffset();

        assertThat(h.engine.control().pin(new DataplaneControl.To.Time(start), "r", WAIT)).isInstanceOfSatisfying(
                ControlAnswer.Refused.class, r -> {
                    assertThat(r.code()).isEqualTo("before-journal");
                    assertThat(r.message()).contains("before the journal's first record (offset 0, recorded ");
                });
        assertThat(h.engine.control().pin(new DataplaneControl.To.Time(h.clock.now().plusSeconds(60)), "r", WAIT))
                .isInstanceOfSatisfying(ControlAnswer.Refused.class, r -> assertThat(r.code()).isEqualTo("in-future"));
        assertThat(h.engine.control().pin(new DataplaneControl.To.Offset(records + 10), "r", WAIT))
                .isInstanceOfSatisfying(ControlAnswer.Refused.class, r -> assertThat(r.code()).isEqualTo("bad-offset"));
        assertThat(h.engine.control().pin(new DataplaneControl.To.Offset(0), "r", WAIT)).as("only the config had been recorded")
                .isInstanceOfSatisfying(ControlAnswer.Refused.class, r -> assertThat(r.code()).isEqualTo("not-synced"));
        assertThat(h.log.nextOffset()).as("refusals append nothing").isEqualTo(records);

        ControlAnswer pinned = run(() -> h.engine.control().pin(new DataplaneControl.To.Time(between), "r", WAIT));
        assertThat(pinned.message()).contains("(offset " + (good + 1) + ")"); // the bootstrap's SyncApplied is the last record before
        assertThat(h.events(DataplanePinned.class).getFirst().toOffset()).isEqualTo(good + 1);
        assertThat(lastApplied()).contains("10.0.1.1:8080");
    }

    @Test
    void aFailedPinnedSyncIsReportedAndRetried() {
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000));
        long good = h.bootstrap();
        h.append(slice("a").resourceVersion("2").observed());
        h.advanceMillis(100);
        boolean[] fail = {true};
        h.backend.failure = tx -> fail[0] ? Optional.of(new KernelException(KernelException.Kind.RETRYABLE, "kernel said no"))
                : Optional.empty();
        ControlAnswer answer = run(() -> h.engine.control().pin(new DataplaneControl.To.Offset(good), "r", WAIT));
        assertThat(answer).isInstanceOf(ControlAnswer.Failed.class);
        assertThat(answer.message()).contains("programming it failed").contains("kernel said no").contains("keeps retrying");
        fail[0] = false;
        // The retry comes after the backoff, which grows with every failure while run() advanced
        // the clock (how far depends on how fast the request thread got its answer): wait for it
        // on virtual time, bounded by the sync period the backoff is capped at.
        for (int i = 0; i < 60 && h.events(SyncApplied.class).getLast().uptoOffset() != good; i++) {
            h.advance(Duration.ofSeconds(1));
        }
        assertThat(lastApplied()).contains("10.0.1.1:8080");
        assertThat(h.events(SyncApplied.class).getLast().uptoOffset()).isEqualTo(good);
    }

    @Test
    void aRestartHonoursAPinOlderThanTheNewestSnapshot() {
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 5));
        long good = h.bootstrap();
        h.append(slice("a").resourceVersion("2").observed());
        h.advanceMillis(100);
        run(() -> h.engine.control().pin(new DataplaneControl.To.Offset(good), "r", WAIT));
        for (int i = 0; i < 12; i++) {
            h.append(service("s" + i, "172.30.1." + (i + 1)).observed());
            h.advanceMillis(100);
        }
        String pinnedHash = h.events(SyncApplied.class).getLast().rulesetHash();
        long pinRecord = h.engine.state().pin().orElseThrow().pinnedAt();
        assertThat(h.log.snapshotAtOrBefore(h.log.nextOffset()).orElseThrow().offset()).isGreaterThan(pinRecord);
        h.engine.close(Duration.ofSeconds(1));
        h.engine = null;

        try (EngineHarness restarted = new EngineHarness(h.log)) {
            restarted.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 5));
            assertThat(restarted.engine.state().pin()).hasValueSatisfying(p -> assertThat(p.toOffset()).isEqualTo(good));
            assertThat(restarted.backend.applied).hasSize(1);
            assertThat(restarted.backend.applied.getFirst().text()).contains("10.0.1.1:8080").doesNotContain("172.30.1.");
            SyncApplied after = restarted.events(SyncApplied.class).getLast();
            assertThat(after.uptoOffset()).isEqualTo(good);
            assertThat(after.rulesetHash()).isEqualTo(pinnedHash);
            assertThat(restarted.engine.metrics().scrape()).contains("kproxy_dataplane_pinned 1.0");
        }
    }
}
