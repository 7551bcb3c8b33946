package io.kproxy.source.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.ServiceDeleted;
import io.kproxy.events.ServiceObserved;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SourceSynced;
import io.kproxy.model.Json;
import io.kproxy.model.ServiceRef;
import io.kproxy.source.kube.KnownObjects;
import io.kproxy.source.kube.LogScan;
import io.kproxy.source.kube.ObjectFingerprint;
import io.kproxy.testkit.ServiceFixture;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class KindLedgerTest {

    private final RecordingSink sink = new RecordingSink();
    private final SourceStats stats = new SourceStats(Clock.systemUTC());

    private static Json.Obj svc(String name, String rv, String ip) {
        return ServiceFixture.service("ns1", name).resourceVersion(rv).clusterIP(ip).port("http", 80, "TCP").build();
    }

    private KindLedger ledger(KnownObjects known) {
        return new KindLedger(ResourceKind.SERVICE, known.objects(ResourceKind.SERVICE), known.synced(ResourceKind.SERVICE),
                sink, stats);
    }

    private static List<String> describe(List<ClusterEvent> events) {
        List<String> out = new ArrayList<>();
        for (ClusterEvent e : events) {
            out.add(switch (e) {
                case ServiceObserved o -> "observed " + o.service() + "@" + o.resourceVersion();
                case ServiceDeleted d -> "deleted " + d.service() + "@" + d.resourceVersion() + (d.finalStateUnknown() ? " unknown" : "");
                case SourceSynced s -> "synced " + s.kind() + "@" + s.resourceVersion();
                case SourceRelisted r -> "relisted " + r.kind() + "@" + r.resourceVersion() + " " + new TreeSet<>(r.keysPresent());
                default -> e.toString();
            });
        }
        return out;
    }

    /** A ledger whose known Services are all deferred, read through a reader that records what it was asked. */
    private KindLedger deferredLedger(KnownObjects log, List<List<String>> asked) {
        Map<String, ObjectFingerprint> all = log.objects(ResourceKind.SERVICE);
        return new KindLedger(ResourceKind.SERVICE, Map.of(), all.keySet(), (kind, keys) -> {
            asked.add(new ArrayList<>(new TreeSet<>(keys)));
            Map<String, ObjectFingerprint> out = new java.util.HashMap<>();
            keys.stream().filter(k -> !k.equals("ns1/unreadable")).forEach(k -> out.put(k, all.get(k)));
            return out;
        }, true, sink, stats);
    }

    private static KnownObjects threeServices() {
        return LogScan.fold(List.of(
                new ServiceObserved(new ServiceRef("ns1", "a"), "1", svc("a", "1", "10.0.0.1")),
                new ServiceObserved(new ServiceRef("ns1", "b"), "2", svc("b", "2", "10.0.0.2")),
                new ServiceObserved(new ServiceRef("ns1", "unreadable"), "3", svc("unreadable", "3", "10.0.0.3")),
                new SourceSynced(ResourceKind.SERVICE, "3")));
    }

    @Test
    void aResumedWatchReadsADeferredFingerprintOnlyForTheObjectOfAnEvent() throws Exception {
        List<List<String>> asked = new ArrayList<>();
        KindLedger ledger = deferredLedger(threeServices(), asked);
        KindLedger.Generation g = ledger.resumeGeneration("3");
        ledger.resumed(g);
        ledger.observed(g, svc("a", "1", "10.0.0.1"));           // what the log holds: read, equal, not appended
        ledger.observed(g, svc("b", "5", "10.0.0.9"));           // changed
        ledger.observed(g, svc("unreadable", "3", "10.0.0.3"));  // its record is gone: recorded once more
        ledger.observed(g, svc("a", "1", "10.0.0.1"));           // read already

        assertThat(describe(sink.drain())).containsExactly("observed ns1/b@5", "observed ns1/unreadable@3");
        assertThat(asked).containsExactly(List.of("ns1/a"), List.of("ns1/b"), List.of("ns1/unreadable"));
    }

    @Test
    void aListReadsEveryDeferredFingerprintFirstInOneReadAndDeletesWhatVanished() throws Exception {
        List<List<String>> asked = new ArrayList<>();
        KindLedger ledger = deferredLedger(threeServices(), asked);
        KindLedger.Generation resumed = ledger.resumeGeneration("3");
        ledger.observed(resumed, svc("a", "1", "10.0.0.1"));
        // the resumed watch ended (410): the informer lists
        KindLedger.Generation g = ledger.newGeneration(KindLedger.Origin.START);
        assertThat(asked).containsExactly(List.of("ns1/a"), List.of("ns1/b", "ns1/unreadable"));
        ledger.observed(g, svc("a", "1", "10.0.0.1"));
        ledger.listed(g, "9");   // b vanished meanwhile: deleted at the version the log holds; the unreadable one is forgotten

        assertThat(describe(sink.drain())).containsExactly("deleted ns1/b@2 unknown", "relisted SERVICE@9 [ns1/a]");
        assertThat(asked).hasSize(2);
    }

    @Test
    void aLogThatCannotBeReadForgetsTheDeferredFingerprintsAndRecordsTheObjectsAgain() throws Exception {
        KnownObjects log = threeServices();
        KindLedger ledger = new KindLedger(ResourceKind.SERVICE, Map.of(), log.objects(ResourceKind.SERVICE).keySet(), (kind, keys) -> {
            throw new IllegalStateException("segment unreadable");
        }, true, sink, stats);
        KindLedger.Generation g = ledger.resumeGeneration("3");
        ledger.observed(g, svc("a", "1", "10.0.0.1"));

        assertThat(describe(sink.drain())).containsExactly("observed ns1/a@1");
    }

    @Test
    void firstStartObservesEverythingThenSyncs() throws Exception {
        KindLedger ledger = ledger(KnownObjects.empty());
        KindLedger.Generation g = ledger.newGeneration(KindLedger.Origin.START);
        assertThat(ledger.listing()).isTrue();
        ledger.observed(g, svc("a", "1", "10.0.0.1"));
        ledger.observed(g, svc("b", "2", "10.0.0.2"));
        ledger.listed(g, "2");

        assertThat(describe(sink.drain())).containsExactly("observed ns1/a@1", "observed ns1/b@2", "synced SERVICE@2");
        assertThat(ledger.listing()).isFalse();
        assertThat(ledger.firstListDurable()).isDone();
    }

    @Test
    void restartWithNothingChangedAppendsNothing() throws Exception {
        KnownObjects known = LogScan.fold(List.of(
                new ServiceObserved(new ServiceRef("ns1", "a"), "1", svc("a", "1", "10.0.0.1")),
                new SourceSynced(ResourceKind.SERVICE, "1")));
        KindLedger ledger = ledger(known);
        KindLedger.Generation g = ledger.newGeneration(KindLedger.Origin.START);
        ledger.observed(g, svc("a", "1", "10.0.0.1"));
        ledger.listed(g, "5");

        assertThat(sink.drain()).isEmpty();
        assertThat(ledger.firstListDurable()).isDone();
    }

    @Test
    void restartAppendsOnlyTheDifferences() throws Exception {
        KnownObjects known = LogScan.fold(List.of(
                new ServiceObserved(new ServiceRef("ns1", "a"), "1", svc("a", "1", "10.0.0.1")),
                new ServiceObserved(new ServiceRef("ns1", "b"), "2", svc("b", "2", "10.0.0.2")),
                new ServiceObserved(new ServiceRef("ns1", "c"), "3", svc("c", "3", "10.0.0.3")),
                new SourceSynced(ResourceKind.SERVICE, "3")));
        KindLedger ledger = ledger(known);
        KindLedger.Generation g = ledger.newGeneration(KindLedger.Origin.START);
        ledger.observed(g, svc("a", "1", "10.0.0.1"));      // unchanged
        ledger.observed(g, svc("b", "2", "10.0.0.9"));      // same version, other content (a replaced API server)
        ledger.observed(g, svc("d", "7", "10.0.0.4"));      // new; c vanished while the proxy was down
        ledger.listed(g, "9");

        assertThat(describe(sink.drain())).containsExactly(
                "observed ns1/b@2", "observed ns1/d@7", "deleted ns1/c@3 unknown", "relisted SERVICE@9 [ns1/a, ns1/b, ns1/d]");
    }

    @Test
    void objectsKnownBeforeAnySyncAreReconciledThenSynced() throws Exception {
        KnownObjects known = LogScan.fold(List.of(
                new ServiceObserved(new ServiceRef("ns1", "gone"), "1", svc("gone", "1", "10.0.0.1"))));
        KindLedger ledger = ledger(known);
        KindLedger.Generation g = ledger.newGeneration(KindLedger.Origin.START);
        ledger.listed(g, "4");

        assertThat(describe(sink.drain())).containsExactly("deleted ns1/gone@1 unknown", "synced SERVICE@4");
    }

    @Test
    void watchEventsAfterTheListAreRecordedInOrder() throws Exception {
        KindLedger ledger = ledger(KnownObjects.empty());
        KindLedger.Generation g = ledger.newGeneration(KindLedger.Origin.START);
        ledger.listed(g, "1");
        ledger.observed(g, svc("a", "2", "10.0.0.1"));
        ledger.observed(g, svc("a", "3", "10.0.0.5"));
        ledger.observed(g, svc("a", "3", "10.0.0.5"));   // a replayed ADDED after a reconnect: already held
        ledger.deleted(g, svc("a", "4", "10.0.0.5"), false);

        assertThat(describe(sink.drain())).containsExactly(
                "synced SERVICE@1", "observed ns1/a@2", "observed ns1/a@3", "deleted ns1/a@4");
    }

    @Test
    void aResumedWatchListsNothingAndRecordsOnlyWhatDiffers() throws Exception {
        KnownObjects known = LogScan.fold(List.of(
                new ServiceObserved(new ServiceRef("ns1", "a"), "1", svc("a", "1", "10.0.0.1")),
                new ServiceObserved(new ServiceRef("ns1", "b"), "2", svc("b", "2", "10.0.0.2")),
                new SourceSynced(ResourceKind.SERVICE, "3")));
        KindLedger ledger = ledger(known);
        KindLedger.Generation g = ledger.resumeGeneration("3");
        assertThat(ledger.listing()).as("a resumed kind is not listing").isFalse();
        assertThat(ledger.position()).isEqualTo("3");
        assertThat(ledger.firstListDurable()).isNotDone();

        ledger.resumed(g);
        assertThat(ledger.firstListDurable()).isDone();
        ledger.observed(g, svc("a", "1", "10.0.0.1"));      // replayed, already held
        ledger.observed(g, svc("b", "5", "10.0.0.9"));      // changed while the proxy was down
        ledger.deleted(g, svc("a", "6", "10.0.0.1"), false);

        assertThat(describe(sink.drain())).as("no barrier, no vanished keys: nothing was listed")
                .containsExactly("observed ns1/b@5", "deleted ns1/a@6");
        assertThat(ledger.position()).isEqualTo("6");
        assertThat(ledger.snapshot()).containsOnlyKeys("ns1/b");
    }

    @Test
    void aGenerationStartedAfterAResumeIgnoresTheResumedWatch() throws Exception {
        KindLedger ledger = ledger(LogScan.fold(List.of(
                new ServiceObserved(new ServiceRef("ns1", "a"), "1", svc("a", "1", "10.0.0.1")),
                new SourceSynced(ResourceKind.SERVICE, "1"))));
        KindLedger.Generation resumed = ledger.resumeGeneration("1");
        KindLedger.Generation listing = ledger.newGeneration(KindLedger.Origin.START);   // the resumed watch met a 410
        assertThat(ledger.current(resumed)).isFalse();
        ledger.resumed(resumed);
        ledger.observed(resumed, svc("z", "9", "10.0.0.9"));
        ledger.listed(listing, "12");

        assertThat(describe(sink.drain())).containsExactly("deleted ns1/a@1 unknown", "relisted SERVICE@12 []");
        assertThat(ledger.firstListDurable()).as("the list's barrier, not the replaced resume, settles the kind").isDone();
        assertThat(ledger.position()).isEqualTo("12");
    }

    @Test
    void thePositionFollowsWatchEventsAndListEndsButNotListItems() throws Exception {
        KindLedger ledger = ledger(KnownObjects.empty());
        KindLedger.Generation g = ledger.newGeneration(KindLedger.Origin.START);
        assertThat(ledger.position()).as("nothing watched yet").isEmpty();
        ledger.observed(g, svc("b", "8", "10.0.0.2"));       // list items come in key order, not version order
        ledger.observed(g, svc("a", "3", "10.0.0.1"));
        assertThat(ledger.position()).isEmpty();
        ledger.listed(g, "9");
        assertThat(ledger.position()).isEqualTo("9");
        ledger.observed(g, svc("a", "10", "10.0.0.5"));
        ledger.observed(g, svc("a", "10", "10.0.0.5"));      // replayed after a reconnect: already held, still seen
        ledger.deleted(g, svc("b", "11", "10.0.0.2"), false);
        assertThat(ledger.position()).isEqualTo("11");
        ledger.beforeList(g, "11");                            // fabric8 relists inside the generation (a 410)
        ledger.observed(g, svc("c", "4", "10.0.0.3"));
        assertThat(ledger.position()).isEqualTo("11");
        ledger.listed(g, "15");
        assertThat(ledger.position()).isEqualTo("15");
    }

    @Test
    void aResumedWatchsBookmarkMovesThePositionWithoutAnEvent() throws Exception {
        KindLedger ledger = ledger(KnownObjects.empty());
        KindLedger.Generation g = ledger.resumeGeneration("7");
        ledger.bookmarked(g, "19");
        assertThat(ledger.position()).isEqualTo("19");
        assertThat(sink.drain()).isEmpty();
        ledger.bookmarked(g, "not a token\n");
        assertThat(ledger.position()).as("a version that is not a token is not kept").isEqualTo("19");
        KindLedger.Generation listing = ledger.newGeneration(KindLedger.Origin.WATCHDOG);
        ledger.bookmarked(g, "25");
        assertThat(ledger.position()).as("the replaced watch's bookmark").isEqualTo("19");
        ledger.listed(listing, "30");
        assertThat(ledger.position()).isEqualTo("30");
    }

    @Test
    void anEventTheQueueRefusedLosesThePosition() throws Exception {
        KindLedger ledger = ledger(KnownObjects.empty());
        KindLedger.Generation g = ledger.newGeneration(KindLedger.Origin.START);
        ledger.listed(g, "1");
        ledger.observed(g, svc("a", "2", "10.0.0.1"));
        assertThat(ledger.position()).isEqualTo("2");
        sink.refusing = true;                                   // the source is stopping
        ledger.observed(g, svc("a", "3", "10.0.0.5"));
        sink.refusing = false;
        ledger.observed(g, svc("a", "4", "10.0.0.6"));

        assertThat(ledger.position()).as("a later process must not resume past the refused event").isEmpty();
    }

    @Test
    void aRelistInsideOneInformerEndsWithTheKeysPresent() throws Exception {
        KindLedger ledger = ledger(KnownObjects.empty());
        KindLedger.Generation g = ledger.newGeneration(KindLedger.Origin.START);
        ledger.observed(g, svc("a", "1", "10.0.0.1"));
        ledger.observed(g, svc("b", "2", "10.0.0.2"));
        ledger.listed(g, "2");
        sink.drain();

        ledger.beforeList(g, "2");
        assertThat(ledger.listing()).isTrue();
        ledger.deleted(g, svc("b", "2", "10.0.0.2"), true);   // fabric8: vanished during a 410 relist
        ledger.listed(g, "8");

        assertThat(describe(sink.drain())).containsExactly("deleted ns1/b@2 unknown", "relisted SERVICE@8 [ns1/a]");
        assertThat(stats.snapshot().relists()).isEqualTo(1);
        assertThat(stats.snapshot().forcedRelists()).isZero();
    }

    @Test
    void aForcedRelistComparesWithWhatTheLogHoldsAndIgnoresTheOldInformer() throws Exception {
        KindLedger ledger = ledger(KnownObjects.empty());
        KindLedger.Generation first = ledger.newGeneration(KindLedger.Origin.START);
        ledger.observed(first, svc("a", "1", "10.0.0.1"));
        ledger.observed(first, svc("b", "2", "10.0.0.2"));
        ledger.listed(first, "2");
        sink.drain();

        KindLedger.Generation second = ledger.newGeneration(KindLedger.Origin.WATCHDOG);
        ledger.observed(first, svc("z", "3", "10.0.0.3"));    // late callback of the replaced informer
        ledger.observed(second, svc("a", "1", "10.0.0.1"));
        ledger.observed(second, svc("c", "5", "10.0.0.3"));
        ledger.listed(second, "6");

        assertThat(describe(sink.drain())).containsExactly(
                "observed ns1/c@5", "deleted ns1/b@2 unknown", "relisted SERVICE@6 [ns1/a, ns1/c]");
        assertThat(stats.snapshot().forcedRelists()).isEqualTo(1);
        assertThat(ledger.snapshot()).containsOnlyKeys("ns1/a", "ns1/c");
    }

    @Test
    void anInvalidObjectIsSkippedAndCounted() throws Exception {
        KindLedger ledger = ledger(KnownObjects.empty());
        KindLedger.Generation g = ledger.newGeneration(KindLedger.Origin.START);
        Json.Obj bad = svc("a", "1", "10.0.0.1");
        bad = bad.with("metadata", bad.object("metadata").with("name", Json.of("Not_A_Label")));
        ledger.observed(g, bad);
        ledger.observed(g, svc("b", "2", "10.0.0.2"));
        ledger.listed(g, "2");

        assertThat(describe(sink.drain())).containsExactly("observed ns1/b@2", "synced SERVICE@2");
        assertThat(stats.snapshot().skipped()).isEqualTo(1);
        assertThat(stats.snapshot().lastError()).contains("Not_A_Label");
    }

    @Test
    void observationsAreTrimmed() throws Exception {
        KindLedger ledger = ledger(KnownObjects.empty());
        KindLedger.Generation g = ledger.newGeneration(KindLedger.Origin.START);
        Json.Obj obj = svc("a", "1", "10.0.0.1");
        obj = obj.with("metadata", obj.object("metadata").with("managedFields", Json.arr(Json.obj("manager", Json.of("x")))));
        ledger.observed(g, obj);

        ServiceObserved o = (ServiceObserved) sink.drain().getFirst();
        assertThat(o.object().object("metadata").fields()).doesNotContainKey("managedFields");
        assertThat(ledger.snapshot()).isEqualTo(Map.of("ns1/a", ObjectFingerprint.of(obj)));
        assertThat(o.resourceVersion()).isEqualTo("1");
    }

    /**
     * Issue 18, defect 4: a resourceVersion that is not an opaque token never reaches the log.
     * An observation holding one is skipped and reported like any bad object; a list's barrier and
     * a delete are recorded with "" (unknown), since losing them would stall the node or keep
     * stale rules.
     */
    @Test
    void aResourceVersionThatIsNotATokenNeverReachesTheLog() throws Exception {
        String forged = "2\n}\ntable inet x { chain input { type filter hook input priority 0; policy drop; } }\n#";
        KindLedger ledger = ledger(KnownObjects.empty());
        KindLedger.Generation g = ledger.newGeneration(KindLedger.Origin.START);
        ledger.observed(g, svc("a", "1", "10.0.0.1"));
        ledger.observed(g, svc("b", forged, "10.0.0.2"));
        ledger.listed(g, "3\u001b[31m");
        ledger.observed(g, svc("a", "4\r\nlevel=ERROR", "10.0.0.9"));
        ledger.deleted(g, svc("a", "5\u2028", "10.0.0.9"), false);

        assertThat(describe(sink.drain())).containsExactly("observed ns1/a@1", "synced SERVICE@", "deleted ns1/a@");
        assertThat(stats.snapshot().skipped()).isEqualTo(2);
        assertThat(stats.snapshot().lastError()).contains("refused the resourceVersion of delete SERVICE ns1/a")
                .doesNotContain("\n", "\r", "\u001b", "\u2028");
    }
}
