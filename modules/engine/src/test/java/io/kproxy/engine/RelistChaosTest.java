package io.kproxy.engine;

import static io.kproxy.engine.EngineHarness.service;
import static io.kproxy.engine.EngineHarness.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncKind;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * chaos/410-gone-relist.md: after a relist (a 410 Gone, a watchdog), objects the relist no
 * longer lists are gone from the kernel at the next sync, and a relist that finds nothing new
 * changes nothing.
 */
class RelistChaosTest {

    private final EngineHarness h = new EngineHarness();

    @AfterEach
    void tearDown() {
        h.close();
    }

    @Test
    void whatARelistNoLongerListsIsRemovedFromTheKernel() {
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000));
        h.bootstrap();
        h.append(service("b", "172.30.0.2").observed(), slice("b", "10.0.1.2").observed());
        assertThat(h.backend.applied.getLast().text()).contains("ns/b:p");
        // The watch missed b's deletion; the relist after the 410 lists only a.
        h.append(new SourceRelisted(ResourceKind.SERVICE, "9", Set.of("ns/a")),
                new SourceRelisted(ResourceKind.ENDPOINT_SLICE, "9", Set.of("ns/a-1")));
        FakeBackend.Applied last = h.backend.applied.getLast();
        assertThat(last.kind()).isEqualTo(SyncKind.PARTIAL);
        assertThat(last.text()).contains("delete ns/b:p").doesNotContain("add ns/b:p");
        assertThat(h.events(SyncApplied.class).getLast().rulesetHash()).isEqualTo(h.backend.render(h.engine.state().node()).rulesetHash());
    }

    @Test
    void aRelistThatFindsNothingNewChangesNothing() {
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000));
        h.bootstrap();
        int before = h.backend.applied.size();
        h.append(new SourceRelisted(ResourceKind.SERVICE, "9", Set.of("ns/a")),
                new SourceRelisted(ResourceKind.ENDPOINT_SLICE, "9", Set.of("ns/a-1")));
        h.advance(Duration.ofMinutes(1));
        assertThat(h.backend.applied).hasSize(before);
    }
}
