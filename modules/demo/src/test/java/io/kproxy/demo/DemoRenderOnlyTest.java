package io.kproxy.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.engine.DataplaneControl;
import io.kproxy.events.Envelope;
import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.LocalJournal;
import io.kproxy.model.ServiceRef;
import io.kproxy.testkit.DemoHistories;
import io.kproxy.testkit.SettableClock;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The demo without a kernel (render-only, as a non-root user gets it) on a small recorded history
 * ({@link DemoHistories}), and its refusals: the timeline, the bad change and the ruleset lines it
 * changed; a clear message and exit 2 for an unusable history or Service. The CLI's side (option
 * parsing, exit codes of bad arguments) is in modules/app, DemoCommandTest.
 */
class DemoRenderOnlyTest {

    /** The render-only demo never reaches the admin socket: any use fails the test. */
    private static final AdminSocket NO_ADMIN = new AdminSocket() {
        @Override
        public AutoCloseable serve(Path path, DataplaneControl control, Duration syncTimeout) {
            throw new AssertionError("the render-only demo served an admin socket");
        }

        @Override
        public String rollback(Path path, Instant to, String reason) {
            throw new AssertionError("the render-only demo rolled back");
        }

        @Override
        public String status(Path path) {
            throw new AssertionError("the render-only demo asked for the status");
        }

        @Override
        public String resume(Path path, String reason) {
            throw new AssertionError("the render-only demo resumed");
        }
    };

    private Path dir;

    @BeforeEach
    void setUp() throws IOException {
        dir = Files.createTempDirectory("kp-demo-history-");
        write(dir.resolve("history"));
    }

    @AfterEach
    void tearDown() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** Appends {@link DemoHistories#records()} at their times into a new journal in {@code journal}. */
    static Path write(Path journal) {
        SettableClock clock = new SettableClock(DemoHistories.START);
        try (LocalJournal j = LocalJournal.open(JournalOptions.defaults(journal).withClock(clock))) {
            for (Envelope e : DemoHistories.records()) {
                clock.set(e.recordedAt());
                j.append(e.source(), e.event()).join();
            }
        }
        return journal;
    }

    record Run(int exit, String out, String err) {
    }

    private Run demo(Path history, String service) throws IOException {
        return demo(history, service, Optional.empty());
    }

    private Run demo(Path history, String service, Optional<String> mode) throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Path log = Files.createTempFile(dir, "demo-", ".log");
        int exit = Demo.run(new DemoOptions(history, ServiceRef.parse(service), Duration.ofSeconds(60), Optional.empty(), true, mode), NO_ADMIN,
                new PrintWriter(out), new PrintWriter(err), false, log);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void rendersTheTimelineAndTheBadChangesRulesetDiff() throws IOException {
        Run r = demo(dir.resolve("history"), "shop/checkout");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("records of node node-a, 03:00:00.000 to 03:15:00.000 (15m)")
                .contains("Probed Service: shop/checkout at 10.96.0.50:80; its pods listen on port 8080.")
                .contains("RENDER-ONLY: --render-only was given")
                .contains("03:00:00.000  #0  ConfigRecorded: the agent starts (node node-a)")
                .contains("SourceSynced endpoint slice: initial list complete")
                .contains("03:03:00.000  #").contains("shop/checkout 10.96.0.50:80 -> 10.244.1.11:8080, 10.244.1.12:8080, 10.244.1.13:8080")
                .contains("03:05:00.000  #").contains("EndpointSliceObserved shop/checkout 10.96.0.50:80 -> 10.244.1.11:8081, 10.244.1.13:8081"
                        + "   <-- the bad change")
                .contains("-- no records for 4m59s (the source heard nothing: an API server outage?)")
                .contains("SourceRelisted service: relist with 2 objects present")
                .contains("The bad change, #").contains("Before it:   shop/checkout 10.96.0.50:80 -> 10.244.1.11:8080, 10.244.1.13:8080")
                .contains("kproxy rollback --to 2026-11-22T03:04:59.999Z");
        assertThat(r.out().lines().filter(l -> l.startsWith("  - ")).toList()).isNotEmpty().allMatch(l -> !l.contains(":8081"))
                .anyMatch(l -> l.contains("8080"));
        assertThat(r.out().lines().filter(l -> l.startsWith("  + ")).toList()).isNotEmpty().anyMatch(l -> l.contains("8081"));
        assertThat(r.out().lines().filter(l -> l.contains("SyncApplied"))).as("the recorded engine's own records are left out").isEmpty();
    }

    @Test
    void inIpvsModeTheBadChangeShowsAsRealServersOfTheVirtualServer() throws IOException {
        Run r = demo(dir.resolve("history"), "shop/checkout", Optional.of("ipvs"));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("What it changed in the ipvs ruleset ('-' before, '+' after):")
                .contains("  - -a -t 10.96.0.50:80 -r 10.244.1.11:8080 -m -w 1").contains("  + -a -t 10.96.0.50:80 -r 10.244.1.11:8081 -m -w 1");
        assertThat(r.out().lines().filter(l -> l.startsWith("  - ") || l.startsWith("  + ")).toList()).isNotEmpty()
                .allMatch(l -> l.contains("10.96.0.50") || l.contains("10.244.1."));
    }

    @Test
    void anUnusableHistoryOrServiceIsRefusedWithExit2() throws IOException {
        Run missing = demo(dir.resolve("nowhere"), "shop/checkout");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).isEqualTo("kproxy demo: no recorded history at " + dir.resolve("nowhere") + "\n");
        Run service = demo(dir.resolve("history"), "shop/nothing");
        assertThat(service.exit()).isEqualTo(2);
        assertThat(service.err()).isEqualTo("kproxy demo: Service shop/nothing never has a TCP port with endpoints in this history\n");
        for (Run r : new Run[] {missing, service}) {
            assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
        }
        assertThatThrownBy(() -> new DemoOptions(dir, ServiceRef.parse("shop/checkout"), Duration.ofSeconds(500), Optional.empty(), false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 100 seconds");
    }

    @Test
    void aServiceThatNeverBreaksIsReportedNotInvented() throws IOException {
        Run r = demo(dir.resolve("history"), "shop/cart");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("shop/cart never loses its endpoints on port [9090]");
    }
}
