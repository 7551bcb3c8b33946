package io.kproxy.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.Envelope;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.testkit.SettableClock;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The agent's page ({@code kproxy run --ui-listen}): over a log the process holds and keeps
 * appending to, the page follows the new records, and closing the page leaves the log open.
 */
class UiLiveLogTest {

    @Test
    void theAgentsPageFollowsItsLog() throws Exception {
        List<Envelope> sample;
        try (LocalJournal j = LocalJournal.openReadOnly(Journals.CLUSTER_HOUR)) {
            sample = j.read(0, Integer.MAX_VALUE);
        }
        SettableClock clock = new SettableClock(sample.getFirst().recordedAt());
        MemoryEventLog log = new MemoryEventLog(clock);
        append(log, clock, sample.subList(0, 900));
        try (UiServer server = UiServer.forLog(log, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            assertThat(server.awaitIndexed(Duration.ofSeconds(30))).isTrue();
            Http http = new Http(server);
            assertThat(http.get("/api/summary").body()).contains("\"records\":900");
            assertThat(http.get("/api/moment?record=853").body()).contains("\"sync\":{\"offset\":855", "caused by:");
            assertThat(http.get("/api/moment?record=1376").statusCode()).isEqualTo(404);

            append(log, clock, sample.subList(900, sample.size()));
            assertThat(server.awaitIndexed(Duration.ofSeconds(30))).isTrue();
            assertThat(http.get("/api/summary").body()).contains("\"records\":1576");
            assertThat(http.get("/api/marks").body()).contains("\"offset\":1376,\"service\":\"shop/checkout\"");
            // the history is reopened over the grown log: the fix is there now
            assertThat(http.get("/api/moment?record=1376").body()).contains("\"sync\":{\"offset\":1378", "ServiceObserved shop/checkout");
        }
        assertThat(log.nextOffset()).isEqualTo(1576); // still open: the page does not own the agent's log
        assertThat(log.read(1575, 1)).hasSize(1);
    }

    private static void append(MemoryEventLog log, SettableClock clock, List<Envelope> records) {
        for (Envelope e : records) {
            clock.set(e.recordedAt());
            log.append(e.source(), e.event()).join();
        }
    }
}
