package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code kproxy demo} without a kernel (render-only, as a non-root user gets it) on a small
 * recorded history ({@link DemoHistories}), and its refusals: the timeline, the bad change and
 * the ruleset lines it changed; a clear message and exit 2 for an unusable history or Service.
 */
class DemoRenderOnlyTest {

    private Path dir;

    @BeforeEach
    void setUp() throws IOException {
        dir = Files.createTempDirectory("kp-demo-history-");
        DemoHistories.write(dir.resolve("history"));
    }

    @AfterEach
    void tearDown() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    record Run(int exit, String out, String err) {
    }

    private Run demo(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = Main.commandLine();
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        String[] all = new String[args.length + 1];
        all[0] = "demo";
        System.arraycopy(args, 0, all, 1, args.length);
        int exit = cmd.execute(all);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void rendersTheTimelineAndTheBadChangesRulesetDiff() {
        Run r = demo("--history", dir.resolve("history").toString(), "--render-only");
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
    void anUnusableHistoryOrServiceIsRefusedWithExit2() {
        Run missing = demo("--history", dir.resolve("nowhere").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).isEqualTo("kproxy demo: no recorded history at " + dir.resolve("nowhere") + "\n");
        Run service = demo("--history", dir.resolve("history").toString(), "--service", "shop/nothing", "--render-only");
        assertThat(service.exit()).isEqualTo(2);
        assertThat(service.err()).isEqualTo("kproxy demo: Service shop/nothing never has a TCP port with endpoints in this history\n");
        Run badName = demo("--history", dir.resolve("history").toString(), "--service", "not a service");
        assertThat(badName.exit()).isEqualTo(2);
        assertThat(badName.err()).startsWith("kproxy demo: ");
        Run badReplay = demo("--history", dir.resolve("history").toString(), "--replay-seconds", "500");
        assertThat(badReplay.exit()).isEqualTo(2);
        assertThat(badReplay.err()).contains("at most 100 seconds");
        for (Run r : new Run[] {missing, service, badName, badReplay}) {
            assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
        }
    }

    @Test
    void aServiceThatNeverBreaksIsReportedNotInvented() {
        Run r = demo("--history", dir.resolve("history").toString(), "--service", "shop/cart", "--render-only");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("shop/cart never loses its endpoints on port [9090]");
    }
}
