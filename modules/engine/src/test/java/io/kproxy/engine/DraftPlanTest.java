package io.kproxy.engine;

import static io.kproxy.engine.EngineHarness.service;
import static io.kproxy.engine.EngineHarness.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncKind;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The draft plan rendered while the initial list arrives: rendered, never applied before sync,
 * and the first sync starts from it (an incremental render), programming exactly the full
 * render of the synced state.
 */
class DraftPlanTest {

    private final EngineHarness h = new EngineHarness();

    @AfterEach
    void tearDown() {
        h.close();
    }

    /** An engine whose initial list brings {@code services} Services and their slices, one pair every 10 ms; no sync barrier yet. */
    private void listing(int services) {
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000));
        h.append(new ConfigRecorded(new NodeName(EngineHarness.NODE), Json.obj("mode", Json.of("nftables"))));
        for (int i = 1; i <= services; i++) {
            h.append(service("s" + i, "172.30.0." + i).observed(), slice("s" + i, "10.0.1." + i).observed());
            h.advanceMillis(10);
        }
    }

    @Test
    void theFirstSyncStartsFromTheDraftRenderedDuringTheList() {
        listing(5);
        h.append(new SourceSynced(ResourceKind.SERVICE, "1"));
        h.advance(Duration.ofSeconds(1));
        assertThat(h.backend.applied).as("nothing is programmed before both kinds synced").isEmpty();
        assertThat(h.backend.fullRenders + h.backend.incrementalRenders).as("drafts rendered").isPositive();
        int full = h.backend.fullRenders;

        long synced = h.append(new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1"));
        assertThat(h.backend.applied).extracting(FakeBackend.Applied::kind).containsExactly(SyncKind.FULL);
        assertThat(h.backend.fullRenders).as("the first sync rendered from the draft, not from scratch").isEqualTo(full);
        SyncApplied first = h.events(SyncApplied.class).getFirst();
        assertThat(first.uptoOffset()).isEqualTo(synced);
        assertThat(first.rulesetHash()).isEqualTo(h.backend.render(h.engine.state().node()).rulesetHash());
        assertThat(h.backend.applied.getFirst().text()).contains("ns/s1:p", "ns/s5:p", "10.0.1.5:8080");
    }

    @Test
    void draftsDuringTheListAreSpacedNotBackToBack() {
        listing(100);
        int renders = h.backend.fullRenders + h.backend.incrementalRenders;
        assertThat(renders).as("one second of list: a draft at most every %s", DraftPlan.MIN_GAP).isBetween(1, 5);
        h.append(new SourceSynced(ResourceKind.SERVICE, "1"), new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1"));
        assertThat(h.backend.applied.getFirst().text()).as("the first sync still programs everything").contains("ns/s1:p", "ns/s100:p");
    }

    @Test
    void aSyncedJournalSyncsAtOnceWithoutADraft() {
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000));
        h.bootstrap();
        assertThat(h.backend.applied).hasSize(1);
        int renders = h.backend.fullRenders + h.backend.incrementalRenders;
        h.append(slice("a", "10.0.1.9").resourceVersion("2").observed());
        assertThat(h.backend.fullRenders + h.backend.incrementalRenders).isEqualTo(renders + 1);
    }
}
