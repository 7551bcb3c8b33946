package io.kproxy.engine;

import static io.kproxy.engine.EngineHarness.service;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.Envelope;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncKind;
import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.LocalJournal;
import io.kproxy.state.FoldedState;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * chaos/torn-journal-tail.md: a crash that tore the journal's last record costs that record only
 * (it was never acknowledged, so nothing acted on it); the agent starts from the intact prefix
 * and programs exactly the fold of it, in one full sync.
 */
class TornTailChaosTest {

    @Test
    void theAgentStartsFromTheIntactPrefixAndProgramsItsFold(@TempDir Path dir) throws Exception {
        try (LocalJournal j = LocalJournal.open(JournalOptions.defaults(dir))) {
            EngineHarness.appendSyncedServiceA(j);
            j.append("t", service("b", "172.30.0.2").observed()).join(); // the record the crash tears
        }
        Path segment;
        try (Stream<Path> s = Files.list(dir)) {
            segment = s.filter(p -> p.toString().endsWith(".seg")).sorted().toList().getLast();
        }
        try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() - 5);
        }

        VirtualTimeScheduler vts = VirtualTimeScheduler.create();
        FakeBackend backend = new FakeBackend();
        try (LocalJournal j = LocalJournal.open(JournalOptions.defaults(dir))) {
            assertThat(j.tornTail()).as("recovery cut the torn record").isPresent();
            assertThat(j.nextOffset()).isEqualTo(5);
            List<Envelope> intact = j.read(0, 100);
            FoldedState expected = FoldedState.initial();
            for (Envelope e : intact) {
                expected = expected.apply(e).state();
            }
            Engine engine = Engine.start(new Engine.Wiring(j, backend, EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000),
                    new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), EngineClock.of(vts), vts, vts, vts, Recorder.inline()));
            try {
                // The engine may already have folded its own SyncApplied (offset 5), which changes nothing else.
                assertThat(engine.state().node()).isEqualTo(expected.node());
                assertThat(engine.state().offset()).isBetween(4L, 5L);
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> j.read(5, 10).stream()
                        .anyMatch(e -> e.event() instanceof SyncApplied));
                assertThat(backend.applied).hasSize(1);
                assertThat(backend.applied.getFirst().kind()).isEqualTo(SyncKind.FULL);
                assertThat(backend.applied.getFirst().text()).contains("ns/a:p").doesNotContain("ns/b:p");
                SyncApplied applied = (SyncApplied) j.read(5, 10).stream().filter(e -> e.event() instanceof SyncApplied).findFirst()
                        .orElseThrow().event();
                assertThat(applied.rulesetHash()).isEqualTo(backend.render(expected.node()).rulesetHash());
            } finally {
                engine.close(Duration.ofSeconds(5));
            }
        }
    }
}
