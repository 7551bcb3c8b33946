package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.Envelope;
import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.LocalJournal;
import io.kproxy.testkit.DemoHistories;
import io.kproxy.testkit.KernelTests;
import io.kproxy.testkit.SettableClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code ./kproxy demo} end to end, as root, through the real launcher: the replay breaks the
 * probed Service (a real connection fails), the rollback through the admin socket makes it
 * answer again, the resume brings the failure back, the journal holds the pin and the unpin,
 * and every namespace the demo made is gone afterwards. On the small history of
 * {@link DemoHistories}, and on the repository's sample ({@code events/samples/cluster-hour})
 * when it is there.
 */
class DemoIT {

    private Path dir;

    @BeforeEach
    void setUp() throws IOException {
        KernelTests.require("ip", "nft");
        dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "demo-");
    }

    @AfterEach
    void tearDown() throws IOException {
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    record Run(int exit, String out, String err) {
    }

    private Run demo(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("demo"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = AgentProcess.builder(AgentProcess.command(List.of(), cmd)).redirectOutput(dir.resolve("out").toFile())
                .redirectError(dir.resolve("err").toFile());
        Process p = pb.start();
        if (!p.waitFor(150, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the demo ran longer than 150 s; output so far:\n" + Files.readString(dir.resolve("out")));
        }
        return new Run(p.exitValue(), Files.readString(dir.resolve("out"), StandardCharsets.UTF_8),
                Files.readString(dir.resolve("err"), StandardCharsets.UTF_8));
    }

    private static void assertRolledBackAndCleanedUp(Run r, String service) {
        assertThat(r.exit()).as("exit; stderr:%n%s%nstdout:%n%s", r.err(), r.out()).isZero();
        String out = r.out();
        assertThat(out).contains("network:  node namespace kp-demo-");
        assertThat(out).containsPattern("sync \\d+ \\(\\w+\\) programmed records up to #\\d+: connect [0-9.]+:\\d+ -> ok, answered by pod-");
        assertThat(out).containsPattern(">>> [0-9:.]+  traffic to " + Pattern.quote(service) + " FAILS: connection refused");
        int failed = out.indexOf(" FAILS: ");
        int rollback = out.indexOf("$ kproxy rollback --to ");
        int resume = out.indexOf("$ kproxy resume");
        assertThat(failed).isPositive().isLessThan(rollback);
        assertThat(rollback).isLessThan(resume);
        String afterRollback = out.substring(rollback, resume);
        assertThat(afterRollback).containsPattern("connect [0-9.]+:\\d+ x6 -> 6 answered \\(")
                .contains("dataplane: PINNED to offset").contains("\"dataplanePinned\": true");
        assertThat(out.substring(resume)).containsPattern("x3 -> 3 connection refused");
        assertThat(out).containsPattern("#\\d+  DataplanePinned toOffset=\\d+ reason=\"demo: ")
                .containsPattern("#\\d+  DataplaneUnpinned reason=\"demo: back to the live state\"");
        Matcher ns = Pattern.compile("node namespace (kp-demo-[0-9a-f]+)-node").matcher(out);
        assertThat(ns.find()).isTrue();
        String namespaces = list();
        assertThat(namespaces).as("the demo's namespaces are gone").doesNotContain(ns.group(1));
    }

    /** Appends {@link DemoHistories#records()} at their times into a new journal in {@code journal}. */
    private static Path write(Path journal) {
        SettableClock clock = new SettableClock(DemoHistories.START);
        try (LocalJournal j = LocalJournal.open(JournalOptions.defaults(journal).withClock(clock))) {
            for (Envelope e : DemoHistories.records()) {
                clock.set(e.recordedAt());
                j.append(e.source(), e.event()).join();
            }
        }
        return journal;
    }

    private static String list() {
        try {
            Process p = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
            String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(10, TimeUnit.SECONDS);
            return s;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aSmallHistoryBreaksRollsBackAndResumes() throws Exception {
        Path history = write(dir.resolve("history"));
        Run r = demo("--history", history.toString(), "--replay-seconds", "12");
        assertRolledBackAndCleanedUp(r, "shop/checkout");
        assertThat(r.out()).contains("The change that broke it: #").contains("10.244.1.11:8081, 10.244.1.13:8081")
                .contains("$ kproxy rollback --to 2026-11-22T03:04:59.999Z")
                .contains("<-- all on port 8080 again").containsPattern("03:12:0\\d\\.\\d+  sync \\d+ \\(partial\\) programmed records up to #\\d+: connect 10.96.0.50:80 -> ok")
                .contains("end of the history: connect 10.96.0.50:80 x3 -> 3 answered");
    }

    @Test
    void theRepositorysSample() throws Exception {
        Path sample = AgentProcess.root().resolve(DemoCommand.SAMPLE);
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(sample), "no sample at " + sample + " yet");
        Run r = demo("--replay-seconds", "30");
        assertRolledBackAndCleanedUp(r, "shop/checkout");
    }
}
