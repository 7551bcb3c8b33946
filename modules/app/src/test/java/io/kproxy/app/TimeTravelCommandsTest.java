package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.history.History;
import io.kproxy.model.ServiceRef;
import io.kproxy.testkit.Directories;
import io.kproxy.testkit.Golden;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The time-travel commands in process on the committed sample (events/samples/cluster-hour):
 * they print what the history library computes, and every bad input is one line on standard
 * error with a documented exit code, never a stack trace.
 */
class TimeTravelCommandsTest {

    static final Path SAMPLE = Path.of("../../events/samples/cluster-hour");
    static final String BAD_TIME = "2026-11-22T03:12:07Z";

    static RenderCommandTest.Run run(String... args) {
        RenderCommandTest.Run r = RenderCommandTest.run(args);
        assertThat(r.err()).as("no stack trace").doesNotContain("\tat ").doesNotContain("Exception");
        return r;
    }

    @Test
    void renderAtATimePrintsTheProgrammedRulesetAndSaysWhichSyncItIs() {
        RenderCommandTest.Run r = run("render", "--journal", SAMPLE.toString(), "--at", BAD_TIME);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("add table ip kube-proxy").containsPattern("\\d+-\\d+ : 10.0.1.11 . 8081, \\d+-\\d+ : 10.0.1.12 . 8081");
        assertThat(r.err().strip()).isEqualTo("kproxy render: nftables ruleset at 2026-11-22T03:12:07.000Z: programmed by sync generation 73 "
                + "(partial, nftables) at 2026-11-22T03:12:06.004Z: records up to #858; ruleset hash "
                + r.err().split("ruleset hash ")[1].substring(0, 12) + " equals the one the sync recorded");
        RenderCommandTest.Run byOffset = run("render", "--journal", SAMPLE.toString(), "--offset", "858");
        assertThat(byOffset.out()).isEqualTo(r.out());
        RenderCommandTest.Run before = run("render", "--journal", SAMPLE.toString(), "--at", "2026-11-22T03:12:04.900Z");
        assertThat(before.out()).contains("10.0.1.11 . 8080").doesNotContain(". 8081");
    }

    @Test
    void renderExplainAndRenderInAnotherMode() {
        RenderCommandTest.Run r = run("render", "--journal", SAMPLE.toString(), "--at", BAD_TIME, "--explain");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("# kproxy render --explain: nftables ruleset, 2026-11-22T03:12:07.000Z: programmed by sync generation 73")
                .contains("# shop/checkout: Service #853 2026-11-22T03:12:04.500Z ServiceObserved rv ")
                .contains("#   EndpointSlice shop/checkout-j6ts4: #854 2026-11-22T03:12:05.000Z EndpointSliceObserved rv ")
                .contains("#   monitoring/node-exporter: headless");
        RenderCommandTest.Run ipt = run("render", "--journal", SAMPLE.toString(), "--at", BAD_TIME, "--mode", "iptables");
        assertThat(ipt.exit()).isZero();
        assertThat(ipt.out()).startsWith("# IPv4\n*filter").contains("--to-destination 10.0.1.11:8081");
        assertThat(ipt.err()).contains("iptables ruleset at").doesNotContain("equals");
    }

    @Test
    void diffAndAuditPrintWhatTheLibraryComputes() {
        RenderCommandTest.Run diff = run("diff", "--journal", SAMPLE.toString(), "--from", "2026-11-22T03:10:00Z", "--to", "2026-11-22T03:15:00Z");
        RenderCommandTest.Run audit = run("audit", "--journal", SAMPLE.toString(), "shop/checkout", "--since", "2026-11-22T03:10:00Z");
        assertThat(diff.exit()).as(diff.err()).isZero();
        assertThat(audit.exit()).as(audit.err()).isZero();
        try (History h = History.open(SAMPLE)) {
            assertThat(diff.out()).isEqualTo(h.diff(h.at(Instant.parse("2026-11-22T03:10:00Z")), h.at(Instant.parse("2026-11-22T03:15:00Z")),
                    Optional.empty()));
            assertThat(audit.out()).isEqualTo(h.audit(new ServiceRef("shop", "checkout"), Optional.of(Instant.parse("2026-11-22T03:10:00Z"))));
        }
        assertThat(diff.err()).isEmpty();
        assertThat(audit.err()).isEmpty();
    }

    /** Issue 21: render --at and diff work in ipvs mode through the same code paths (ipvs renders; it cannot run yet). */
    @Test
    void renderAtAndDiffInIpvsMode() {
        RenderCommandTest.Run at = run("render", "--journal", SAMPLE.toString(), "--at", BAD_TIME, "--mode", "ipvs");
        assertThat(at.exit()).as(at.err()).isZero();
        assertThat(at.out()).startsWith("# IPv4 ipsets (ipset save)\n").contains("-a -t 172.30.0.20:80 -r 10.0.1.11:8081 -m -w 1\n");
        RenderCommandTest.Run diff = run("diff", "--journal", SAMPLE.toString(), "--from", "2026-11-22T03:10:00Z", "--to", "2026-11-22T03:15:00Z",
                "--mode", "ipvs");
        assertThat(diff.exit()).as(diff.err()).isZero();
        assertThat(diff.out()).contains("node-wide rules unchanged").contains("== shop/checkout\n")
                .contains("- -a -t 172.30.0.20:80 -r 10.0.1.11:8080 -m -w 1\n").contains("+ -a -t 172.30.0.20:80 -r 10.0.1.11:8081 -m -w 1\n")
                .contains("#854 2026-11-22T03:12:05.000Z EndpointSliceObserved shop/checkout-j6ts4");
    }

    @Test
    void journalInspectAndVerify() {
        RenderCommandTest.Run inspect = run("journal", "inspect", SAMPLE.toString());
        assertThat(inspect.exit()).isZero();
        Golden.assertMatches("journal/inspect-cluster-hour.txt", inspect.out());
        RenderCommandTest.Run verify = run("journal", "verify", SAMPLE.toString());
        assertThat(verify.exit()).isZero();
        assertThat(verify.out()).startsWith("sound: 3 segments, ");
    }

    @Test
    void aTimeBeforeTheJournalStartsIsRefusedWithTheJournalsRange() {
        RenderCommandTest.Run r = run("render", "--journal", SAMPLE.toString(), "--at", "2026-11-22T02:59:59Z");
        assertThat(r.exit()).isEqualTo(4);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("kproxy render: 2026-11-22T02:59:59.000Z is before the journal starts: it holds #0..#")
                .contains("(2026-11-22T03:00:00.000Z .. 2026-11-22T04:01:");
        RenderCommandTest.Run d = run("diff", "--journal", SAMPLE.toString(), "--from", "2026-11-21T03:10:00Z", "--to", "2026-11-22T03:15:00Z");
        assertThat(d.exit()).isEqualTo(4);
        assertThat(d.err()).contains("is before the journal starts");
    }

    @Test
    void anOffsetPastTheEndAnUnknownServiceAndMalformedArgumentsAreRefused() {
        RenderCommandTest.Run past = run("render", "--journal", SAMPLE.toString(), "--offset", "99999");
        assertThat(past.exit()).isEqualTo(4);
        assertThat(past.err()).startsWith("kproxy render: offset 99999 is past the journal's end: it holds #0..#");
        RenderCommandTest.Run unknown = run("audit", "--journal", SAMPLE.toString(), "shop/does-not-exist");
        assertThat(unknown.exit()).isEqualTo(4);
        assertThat(unknown.err()).startsWith("kproxy audit: no record in the journal names Service shop/does-not-exist");
        RenderCommandTest.Run badName = run("audit", "--journal", SAMPLE.toString(), "Shop_Checkout");
        assertThat(badName.exit()).isEqualTo(2);
        assertThat(badName.err()).contains("expected NAMESPACE/SERVICE");
        RenderCommandTest.Run badTime = run("render", "--journal", SAMPLE.toString(), "--at", "yesterday");
        assertThat(badTime.exit()).isEqualTo(2);
        assertThat(badTime.err()).startsWith("kproxy render: cannot read time \"yesterday\": use RFC 3339 with a zone");
        RenderCommandTest.Run noZone = run("render", "--journal", SAMPLE.toString(), "--at", "2026-11-22T03:12:07");
        assertThat(noZone.exit()).isEqualTo(2);
        RenderCommandTest.Run backwards = run("diff", "--journal", SAMPLE.toString(), "--from", "2026-11-22T03:15:00Z", "--to", "2026-11-22T03:10:00Z");
        assertThat(backwards.exit()).isEqualTo(2);
        assertThat(backwards.err()).contains("is before --from");
        RenderCommandTest.Run both = run("render", "--journal", SAMPLE.toString(), "--at", BAD_TIME, "--offset", "3");
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("exactly one of --at=TIME or --offset=N");
        RenderCommandTest.Run mixed = run("render", "--journal", SAMPLE.toString(), "--at", BAD_TIME, "--node", "n");
        assertThat(mixed.exit()).isEqualTo(2);
        RenderCommandTest.Run mode = run("render", "--journal", SAMPLE.toString(), "--at", BAD_TIME, "--mode", "kernelspace");
        assertThat(mode.exit()).isEqualTo(2);
        assertThat(mode.err()).contains("no backend for mode kernelspace (installed: iptables, ipvs, nftables)");
    }

    @Test
    void aMissingOrEmptyDirectoryIsNotAJournal(@TempDir Path tmp) {
        RenderCommandTest.Run missing = run("render", "--journal", tmp.resolve("nope").toString(), "--at", BAD_TIME);
        assertThat(missing.exit()).isEqualTo(5);
        assertThat(missing.err()).startsWith("kproxy render: no journal directory at ");
        RenderCommandTest.Run empty = run("audit", "--journal", tmp.toString(), "shop/checkout");
        assertThat(empty.exit()).isEqualTo(4);
        assertThat(empty.err()).isEqualTo("kproxy audit: the journal holds no records\n");
        RenderCommandTest.Run verify = run("journal", "verify", tmp.resolve("nope").toString());
        assertThat(verify.exit()).isEqualTo(5);
    }

    @Test
    void aCorruptJournalIsReportedWithTheDamagedSegment(@TempDir Path tmp) throws IOException {
        Path copy = Directories.copy(SAMPLE, tmp.resolve("journal"));
        try (RandomAccessFile f = new RandomAccessFile(copy.resolve("00000000000000000000.seg").toFile(), "rw")) {
            f.seek(150_000);
            byte[] junk = new byte[80_000];
            java.util.Arrays.fill(junk, (byte) 0x5a);
            f.write(junk);
        }
        RenderCommandTest.Run render = run("render", "--journal", copy.toString(), "--offset", "600");
        assertThat(render.exit()).isEqualTo(5);
        assertThat(render.err()).startsWith("kproxy render: the answer needs offsets ").contains("..698, which the journal does not hold intact")
                .contains("00000000000000000000.seg");
        RenderCommandTest.Run audit = run("audit", "--journal", copy.toString(), "shop/checkout");
        assertThat(audit.exit()).isEqualTo(5);
        RenderCommandTest.Run verify = run("journal", "verify", copy.toString());
        assertThat(verify.exit()).isEqualTo(5);
        assertThat(verify.out()).contains("DAMAGED_RECORD 00000000000000000000.seg at byte ");
        RenderCommandTest.Run later = run("render", "--journal", copy.toString(), "--at", "2026-11-22T03:50:00Z");
        assertThat(later.exit()).as("a time whose state lies past the damage still renders").isZero();
    }

    /**
     * Issue 18: a bit flipped at byte 40,000 of the newest segment (sound records follow it), and
     * the oldest segment deleted by hand. {@code journal verify} is never "sound"; {@code render}
     * answers before the damage and refuses, naming the offsets, what would need it.
     */
    @Test
    void damageIsReportedAndRenderRefusesWhatNeedsIt(@TempDir Path tmp) throws IOException {
        Path flipped = Directories.copy(SAMPLE, tmp.resolve("flipped"));
        try (RandomAccessFile f = new RandomAccessFile(flipped.resolve("00000000000000001339.seg").toFile(), "rw")) {
            f.seek(40_000);
            int b = f.read();
            f.seek(40_000);
            f.write(b ^ 0x08);
        }
        RenderCommandTest.Run verify = run("journal", "verify", flipped.toString());
        assertThat(verify.exit()).isEqualTo(5);
        assertThat(verify.out()).doesNotStartWith("sound");
        // The damaged frame is the one holding byte 40,000 (where it starts follows the sample's
        // record sizes, which change when the sample is regenerated).
        Matcher damaged = Pattern.compile("DAMAGED_RECORD 00000000000000001339\\.seg at byte (\\d+) offsets 1443\\.\\..*in a frame of (\\d+) bytes")
                .matcher(verify.out());
        assertThat(damaged.find()).as(verify.out()).isTrue();
        long frameStart = Long.parseLong(damaged.group(1));
        assertThat(frameStart).isLessThanOrEqualTo(40_000L).isGreaterThan(40_000L - Long.parseLong(damaged.group(2)));
        RenderCommandTest.Run late = run("render", "--journal", flipped.toString(), "--at", "2026-11-22T04:01:37.336Z");
        assertThat(late.exit()).isEqualTo(5);
        assertThat(late.out()).isEmpty();
        assertThat(late.err()).containsPattern("offsets \\d+\\.\\.\\d+");
        RenderCommandTest.Run early = run("render", "--journal", flipped.toString(), "--at", "2026-11-22T03:30:00Z");
        assertThat(early.exit()).isZero();
        assertThat(early.err()).contains("equals the one the sync recorded");

        Path pruned = Directories.copy(SAMPLE, tmp.resolve("pruned"));
        Files.delete(pruned.resolve("00000000000000000000.seg"));
        Files.delete(pruned.resolve("00000000000000000000.idx"));
        RenderCommandTest.Run missing = run("journal", "verify", pruned.toString());
        assertThat(missing.exit()).isEqualTo(5);
        assertThat(missing.out()).contains("MISSING_RECORDS").contains("offsets 500..698");
        RenderCommandTest.Run before = run("render", "--journal", pruned.toString(), "--at", "2026-11-22T03:10:00Z");
        assertThat(before.exit()).isEqualTo(5);
        assertThat(before.err()).contains("..698").doesNotContain("another kproxy version");
    }
}
