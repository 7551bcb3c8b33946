package io.kproxy.engine;

import static io.kproxy.engine.EngineHarness.service;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncKind;
import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.JournalProblem;
import io.kproxy.journal.LocalJournal;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * Issue 18, defect 1: a flipped bit in an acknowledged record of the newest segment, with sound
 * records after it. The agent must neither lose the damage nor program a state folded from fewer
 * records as if it were whole: it starts from the intact records, steps over the lost range,
 * makes no start-up sync, and programs what the source's relist appends.
 */
class DamagedJournalChaosTest {

    @Test
    void theAgentStepsOverLostRecordsAndProgramsOnlyAfterTheRelist(@TempDir Path dir) throws Exception {
        try (LocalJournal j = LocalJournal.open(JournalOptions.defaults(dir))) {
            EngineHarness.appendSyncedServiceA(j);
            j.append("t", service("b", "172.30.0.2").observed()).join(); // offset 5: the bit flips here
            j.append("t", service("d", "172.30.0.4").observed()).join(); // sound after it: not a torn write
        }
        Path segment;
        try (Stream<Path> s = Files.list(dir)) {
            segment = s.filter(p -> p.toString().endsWith(".seg")).sorted().toList().getLast();
        }
        try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long pos = 20;
            ByteBuffer len = ByteBuffer.allocate(4);
            for (int i = 0; i < 5; i++) {
                ch.read(len.clear(), pos);
                pos += 8 + len.flip().getInt();
            }
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, pos + 12);
            ch.write(ByteBuffer.wrap(new byte[] {(byte) (b.get(0) ^ 0x10)}), pos + 12);
        }

        VirtualTimeScheduler vts = VirtualTimeScheduler.create();
        FakeBackend backend = new FakeBackend();
        try (LocalJournal j = LocalJournal.open(JournalOptions.defaults(dir))) {
            assertThat(j.tornTail()).isEmpty();
            JournalProblem lost = j.openProblems().stream().filter(p -> p.kind() == JournalProblem.Kind.DAMAGED_RECORD).findFirst()
                    .orElseThrow();
            assertThat(lost.firstOffset()).isEqualTo(5);
            long config = j.append("t", new ConfigRecorded(new NodeName(EngineHarness.NODE), Json.Obj.EMPTY)).join(); // as the agent does
            assertThat(config).isGreaterThan(lost.lastOffset());
            Engine engine = Engine.start(new Engine.Wiring(j, backend, EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000),
                    new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), EngineClock.of(vts), vts, vts, vts, Recorder.inline()));
            try {
                assertThat(engine.state().offset()).isEqualTo(config);
                assertThat(engine.state().cluster().services()).extracting(Object::toString).containsExactly("ns/a");
                Thread.sleep(500);
                assertThat(backend.applied).as("no start-up sync from a state that lacks records").isEmpty();
                // the relist finds b and d (lost with the damaged bytes) and a new c
                j.append("t", service("b", "172.30.0.2").observed()).join();
                j.append("t", service("c", "172.30.0.3").observed()).join();
                j.append("t", service("d", "172.30.0.4").observed()).join();
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> backend.applied.stream()
                        .anyMatch(a -> a.text().contains("ns/d:p")));
                assertThat(backend.applied.getFirst().kind()).as("the first sync after the start is a full one").isEqualTo(SyncKind.FULL);
                assertThat(backend.applied.getFirst().text()).contains("ns/a:p").contains("ns/b:p");
                assertThat(String.join("\n", backend.applied.stream().map(FakeBackend.Applied::text).toList())).contains("ns/c:p");
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> j.read(config + 4, 10).stream()
                        .anyMatch(e -> e.event() instanceof SyncApplied));
            } finally {
                engine.close(Duration.ofSeconds(5));
            }
        }
    }
}
