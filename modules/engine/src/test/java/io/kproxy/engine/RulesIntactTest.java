package io.kproxy.engine;

import static io.kproxy.engine.EngineHarness.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.KernelException;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import io.kproxy.events.SyncKind;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The engine's use of {@code Backend.rulesIntact()} on virtual time (docs/upstream-behaviour.md
 * §1.5 row 42: the iptables canary): probed before every partial sync and at least every sync
 * period; when the rules are gone the next sync is a full one with no last plan.
 */
class RulesIntactTest {

    private static final Duration SYNC_PERIOD = Duration.ofSeconds(30);

    private final EngineHarness h = new EngineHarness();

    @AfterEach
    void tearDown() {
        h.close();
    }

    private void start() {
        h.start(EngineHarness.options(Duration.ZERO, SYNC_PERIOD, 10_000));
        h.bootstrap();
        assertThat(h.backend.applied).extracting(FakeBackend.Applied::kind).containsExactly(SyncKind.FULL);
    }

    @Test
    void theFirstSyncIsFullWithoutAProbe() {
        start();
        assertThat(h.backend.probes).isZero();
    }

    @Test
    void theFirstSyncAndTheOneAfterAFailureStartFromTheKernelAsItIs() {
        start();
        assertThat(h.backend.kernelReads).as("the first sync takes over what the kernel holds").isEqualTo(1);
        h.backend.failure = tx -> tx.kind() == SyncKind.PARTIAL ? Optional.of(new KernelException(KernelException.Kind.RETRYABLE, "busy"))
                : Optional.empty();
        h.backend.kernelReadFailure = new KernelException(KernelException.Kind.RETRYABLE, "nft list chains ip: busy");
        h.append(slice("a", "10.0.1.7").resourceVersion("2").observed());
        h.advance(Duration.ofSeconds(5));
        List<String> errors = h.events(SyncFailed.class).stream().map(SyncFailed::error).toList();
        assertThat(errors).as("the partial sync failed, then reading the kernel for each retry failed").hasSizeGreaterThanOrEqualTo(2);
        assertThat(errors.getFirst()).endsWith(": busy");
        assertThat(errors.subList(1, errors.size())).allMatch(e -> e.endsWith("nft list chains ip: busy"));
        assertThat(h.backend.applied).as("nothing applied without reading the kernel").hasSize(2);
        h.backend.kernelReadFailure = null;
        h.advance(SYNC_PERIOD);
        assertThat(h.backend.kernelReads).isGreaterThanOrEqualTo(3);
        assertThat(h.backend.applied.getLast().kind()).isEqualTo(SyncKind.FULL);
        assertThat(h.backend.applied.getLast().succeeded()).isTrue();
        assertThat(h.backend.applied.getLast().text()).contains("10.0.1.7");
        // each of those syncs told the backend before it rendered (it may read the kernel beside the render)
        List<String> calls = h.backend.calls;
        int since = 0;
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).equals("diff-from-kernel")) {
                List<String> before = calls.subList(since, i);
                assertThat(before).as("calls before diff %d", i).contains("will-diff-from-kernel");
                int rendered = Math.max(before.lastIndexOf("render"), before.lastIndexOf("render-incremental"));
                assertThat(before.lastIndexOf("will-diff-from-kernel")).as("calls before diff %d: %s", i, before).isLessThan(rendered);
                since = i + 1;
            }
        }
        assertThat(calls).filteredOn("will-diff-from-kernel"::equals).hasSize(h.backend.kernelReads);
    }

    @Test
    void anIdleEngineProbesAtLeastEverySyncPeriodAndAppliesNothingWhileTheRulesAreThere() {
        start();
        h.advance(Duration.ofMinutes(5));
        assertThat(h.backend.probes).isGreaterThanOrEqualTo(10);
        assertThat(h.backend.applied).hasSize(1);
        assertThat(h.events(SyncApplied.class)).hasSize(1);
    }

    @Test
    void theProbeIsNotASyncAndDoesNotDelayAChangeByTheMinimumInterval() {
        h.start(EngineHarness.options(Duration.ofSeconds(1), SYNC_PERIOD, 10_000));
        h.bootstrap();
        h.advance(SYNC_PERIOD.multipliedBy(4)); // a probe runs right now
        int probes = h.backend.probes;
        h.append(slice("a", "10.0.1.7").resourceVersion("2").observed());
        assertThat(h.backend.applied).extracting(FakeBackend.Applied::kind).containsExactly(SyncKind.FULL, SyncKind.PARTIAL);
        assertThat(h.backend.probes).as("probed before the partial sync").isEqualTo(probes + 1);
    }

    @Test
    void rulesFoundGoneWhileIdleAreRewrittenFromScratchWithinASyncPeriod() {
        start();
        h.advance(Duration.ofSeconds(10));
        h.backend.intact = () -> false;
        h.advance(SYNC_PERIOD);
        assertThat(h.backend.applied).hasSize(2);
        FakeBackend.Applied repair = h.backend.applied.get(1);
        assertThat(repair.kind()).isEqualTo(SyncKind.FULL);
        assertThat(repair.text()).as("no last plan: everything again").startsWith("flush").contains("ns/a");
        assertThat(h.events(SyncApplied.class)).extracting(SyncApplied::kind).containsExactly(SyncKind.FULL, SyncKind.FULL);
        // Back in place: later syncs are partial again.
        h.backend.intact = () -> true;
        h.append(slice("a", "10.0.1.7").resourceVersion("2").observed());
        assertThat(h.backend.applied.getLast().kind()).isEqualTo(SyncKind.PARTIAL);
    }

    @Test
    void aChangeProbesBeforeItsPartialSyncAndGoesFullWhenTheRulesAreGone() {
        start();
        int before = h.backend.probes;
        h.backend.intact = () -> false;
        h.append(slice("a", "10.0.1.9").resourceVersion("2").observed());
        assertThat(h.backend.probes).isEqualTo(before + 1);
        FakeBackend.Applied sync = h.backend.applied.getLast();
        assertThat(sync.kind()).isEqualTo(SyncKind.FULL);
        assertThat(sync.text()).startsWith("flush").contains("10.0.1.9:8080");
    }

    @Test
    void aProbeThatFailsCountsAsRulesGone() {
        start();
        h.backend.intact = () -> {
            throw new KernelException(KernelException.Kind.RETRYABLE, "iptables: resource temporarily unavailable");
        };
        h.append(slice("a", "10.0.1.9").resourceVersion("2").observed());
        assertThat(h.backend.applied.getLast().kind()).isEqualTo(SyncKind.FULL);
        assertThat(h.backend.applied.getLast().text()).startsWith("flush");
    }
}
