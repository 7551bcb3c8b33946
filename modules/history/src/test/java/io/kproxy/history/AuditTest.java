package io.kproxy.history;

import static io.kproxy.history.TestLog.t;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import io.kproxy.events.SyncKind;
import io.kproxy.model.ServiceRef;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The audit timeline's sync bookkeeping: failed attempts, pins, and changes not programmed yet. */
class AuditTest {

    private static final ServiceRef WEB = new ServiceRef("ns", "web");

    private static SyncApplied applied(long generation, long upto) {
        return new SyncApplied("nftables", generation, upto, SyncKind.PARTIAL, "h" + generation, Duration.ofMillis(2));
    }

    @Test
    void aChangeIsProgrammedByTheFirstSyncCoveringItAfterTheFailedAttempts() {
        TestLog l = TestLog.threeServices();
        l.at("00:00:04", applied(1, 9));
        long change = l.at("00:00:10", TestLog.webSlice("23", "10.0.1.11").observed());
        l.at("00:00:10.200", new SyncFailed("nftables", 2, change, SyncKind.PARTIAL, "nft: Error: Could not process rule", true, Duration.ZERO));
        l.at("00:00:11.200", applied(3, change));
        try (History h = History.of(l.log)) {
            String out = h.audit(WEB, Optional.empty());
            assertThat(out).contains("#11 2026-01-01T00:00:10.000Z EndpointSliceObserved ns/web-1 rv 23\n"
                    + "    its rules changed; then:\n"
                    + "      IPv4 http/TCP 172.30.0.10:80: 10.0.1.11:8080\n"
                    + "    sync generation 2 failed at 2026-01-01T00:00:10.200Z: nft: Error: Could not process rule\n"
                    + "    reached the kernel at 2026-01-01T00:00:11.200Z: sync generation 3 (partial, nftables, #13), 1.200s after the record\n")
                    .endsWith("4 records, 3 changes of its rules, all programmed\n");
        }
    }

    @Test
    void aChangeMadeWhileThePlaneIsPinnedWaitsForTheUnpin() {
        TestLog l = TestLog.threeServices();
        l.at("00:00:04", applied(1, 9));
        l.at("00:00:20", new DataplanePinned(9, "bad rollout of ns/web"));
        long change = l.at("00:00:21", TestLog.webSlice("24", "10.0.1.99").observed());
        l.at("00:00:22", applied(2, 9));
        try (History h = History.of(l.log)) {
            assertThat(h.audit(WEB, Optional.of(t("00:00:15"))))
                    .contains("#11 2026-01-01T00:00:20.000Z DataplanePinned to #9: bad rollout of ns/web\n    concerns every Service\n"
                            + "    reached the kernel at 2026-01-01T00:00:22.000Z: sync generation 2")
                    .contains("#12 2026-01-01T00:00:21.000Z EndpointSliceObserved ns/web-1 rv 24\n    its rules changed; then:\n"
                            + "      IPv4 http/TCP 172.30.0.10:80: 10.0.1.99:8080\n"
                            + "    not programmed: the dataplane is pinned (#11 2026-01-01T00:00:20.000Z DataplanePinned to #9: bad rollout of ns/web)")
                    .endsWith("1 change of its rules, 1 not programmed\n");
        }
        l.at("00:00:30", new DataplaneUnpinned("fixed"));
        l.at("00:00:31", applied(3, change + 2));
        try (History h = History.of(l.log)) {
            assertThat(h.audit(WEB, Optional.of(t("00:00:15"))))
                    .contains("      IPv4 http/TCP 172.30.0.10:80: 10.0.1.99:8080\n    reached the kernel at 2026-01-01T00:00:31.000Z: sync generation 3")
                    .contains("DataplaneUnpinned fixed").endsWith("all programmed\n");
        }
    }

    @Test
    void aChangeNoSyncFollowedIsNotProgrammedYet() {
        TestLog l = TestLog.threeServices();
        try (History h = History.of(l.log)) {
            assertThat(h.audit(WEB, Optional.empty())).contains("    not programmed yet: no sync recorded after it\n")
                    .endsWith("3 records, 2 changes of its rules, 2 not programmed\n");
        }
    }

    @Test
    void aServiceNoRecordNamesIsNotInTheJournal() {
        TestLog l = TestLog.threeServices();
        try (History h = History.of(l.log)) {
            assertThatThrownBy(() -> h.audit(new ServiceRef("ns", "nope"), Optional.empty())).isInstanceOfSatisfying(HistoryException.class,
                    e -> assertThat(e.reason()).isEqualTo(HistoryException.Reason.NOT_IN_JOURNAL))
                    .hasMessageStartingWith("no record in the journal names Service ns/nope");
            assertThat(h.audit(new ServiceRef("ns", "headless"), Optional.empty())).contains("#5 2026-01-01T00:00:01.300Z ServiceObserved ns/headless rv 13\n    it gets no rules: headless (clusterIP: None)\n");
        }
    }
}
