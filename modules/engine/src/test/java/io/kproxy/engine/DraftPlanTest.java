package io.kproxy.engine;

import static io.kproxy.engine.EngineHarness.service;
import static io.kproxy.engine.EngineHarness.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.Backend;
import io.kproxy.backend.ForwardingBackend;
import io.kproxy.backend.Plan;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncKind;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.state.FoldedState;
import io.kproxy.state.NodeState;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

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
    void aDraftFarBehindTheSyncedStateGivesWayToARenderFromScratch() {
        listing(10);
        int full = h.backend.fullRenders;
        int incremental = h.backend.incrementalRenders;
        int services = 8 * DraftPlan.ALWAYS_CLOSE;
        for (int i = 11; i <= services; i++) {
            h.append(service("s" + i, "172.30." + i / 250 + "." + i % 250).observed(), slice("s" + i, "10.0." + i / 250 + "." + i % 250).observed());
        }
        assertThat(h.backend.fullRenders + h.backend.incrementalRenders).as("no draft caught up: no time passed").isEqualTo(full + incremental);
        h.append(new SourceSynced(ResourceKind.SERVICE, "1"), new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1"));
        assertThat(h.backend.fullRenders).as("the draft of 10 of %d ports was dropped", services).isEqualTo(full + 1);
        assertThat(h.backend.incrementalRenders).isEqualTo(incremental);
        assertThat(h.backend.applied.getFirst().text()).contains("ns/s1:p", "ns/s" + services + ":p");
        assertThat(h.events(SyncApplied.class).getFirst().rulesetHash()).isEqualTo(h.backend.render(h.engine.state().node()).rulesetHash());
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

    @Test
    void takingTheDraftWaitsForTheRenderInProgressAndUsesIt() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        FakeBackend fake = new FakeBackend();
        Backend slow = new ForwardingBackend(fake) {
            @Override
            public Plan render(NodeState state) {
                started.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return super.render(state);
            }
        };
        Scheduler scheduler = Schedulers.newSingle("draft-test");
        try {
            FoldedState listing = FoldedState.initial();
            DraftPlan draft = new DraftPlan(slow, scheduler, EngineClock.system(), () -> listing);
            draft.request();
            assertThat(started.await(10, TimeUnit.SECONDS)).as("the draft render started").isTrue();
            CompletableFuture<Optional<DraftPlan.Draft>> taken = CompletableFuture.supplyAsync(draft::take);
            Thread.sleep(200);
            assertThat(taken).as("take waits while the render is in progress").isNotDone();
            release.countDown();
            Optional<DraftPlan.Draft> d = taken.get(10, TimeUnit.SECONDS);
            assertThat(d).as("the render in progress is the draft taken").isPresent();
            assertThat(d.get().node()).isEqualTo(listing.node());
            draft.request();
            assertThat(draft.take()).as("nothing is rendered once taken").isEmpty();
        } finally {
            release.countDown();
            scheduler.dispose();
        }
    }
}
