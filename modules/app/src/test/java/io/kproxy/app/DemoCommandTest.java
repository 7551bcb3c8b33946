package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code kproxy demo}'s wiring (the demo itself is tested in modules/demo): the repository's sample
 * shown render-only through the command, and the arguments the command refuses with exit 2 and a
 * one-line message.
 */
class DemoCommandTest {

    record Run(int exit, String out, String err) {
    }

    private static Run demo(String... args) {
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
    void theRepositorysSampleRenderOnly() {
        Path sample = Path.of("../..").resolve(DemoCommand.SAMPLE);
        Run r = demo("--history", sample.toString(), "--render-only");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("1272 records of node demo-node").contains("RENDER-ONLY: --render-only was given")
                .contains("The bad change, #854 at 03:12:05.000")
                .contains("  + add element ip kube-proxy hairpin-connections { 10.0.1.11 . 10.0.1.11 . tcp . 8081 }")
                .contains("'kproxy rollback --to 2026-11-22T03:12:04.999Z'");
    }

    @Test
    void theSampleRenderOnlyInIpvsMode() {
        Path sample = Path.of("../..").resolve(DemoCommand.SAMPLE);
        Run r = demo("--history", sample.toString(), "--render-only", "--mode", "ipvs");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("The bad change, #854 at 03:12:05.000").contains("What it changed in the ipvs ruleset")
                .containsPattern("  \\+ -a -t \\S+ -r 10\\.0\\.1\\.11:8081 -m -w 1").doesNotContain("add element ip kube-proxy");
    }

    @Test
    void badArgumentsAreRefusedWithExit2(@TempDir Path tmp) throws IOException {
        Run missing = demo("--history", tmp.resolve("nowhere").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).isEqualTo("kproxy demo: no recorded history at " + tmp.resolve("nowhere") + "\n");
        Run badName = demo("--history", tmp.toString(), "--service", "not a service");
        assertThat(badName.exit()).isEqualTo(2);
        assertThat(badName.err()).startsWith("kproxy demo: ");
        Run badReplay = demo("--history", tmp.toString(), "--replay-seconds", "500");
        assertThat(badReplay.exit()).isEqualTo(2);
        assertThat(badReplay.err()).contains("at most 100 seconds");
        Files.writeString(Files.createDirectories(tmp.resolve("kept")).resolve("x"), "x");
        Run keep = demo("--history", tmp.toString(), "--keep-journal", tmp.resolve("kept").toString());
        assertThat(keep.exit()).isEqualTo(2);
        assertThat(keep.err()).isEqualTo("kproxy demo: --keep-journal " + tmp.resolve("kept") + " is not empty\n");
        Run badMode = demo("--history", tmp.toString(), "--mode", "userspace");
        assertThat(badMode.exit()).isEqualTo(2);
        assertThat(badMode.err()).startsWith("kproxy demo: --mode userspace: no such backend (installed: ").contains("ipvs");
        for (Run r : new Run[] {missing, badName, badReplay, keep, badMode}) {
            assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
        }
    }
}
