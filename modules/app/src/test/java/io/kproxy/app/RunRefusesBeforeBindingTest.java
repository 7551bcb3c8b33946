package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * Issue 18, defect 7: {@code eventLog: kafka} (built by issue 22; refused now when its cluster
 * identity is missing), mode {@code ipvs} (then without a kernel
 * adapter; issue 21 gave it one, so it is accepted now) and {@code fsyncWindow: 1h} passed validation and {@code --write-config-to}, then failed at {@code run} start with exit 1
 * after binding the health ports. Now {@code run} refuses them with exit 2, naming the field and
 * the reason, before anything is bound or created: the health port is held by the test (a bind
 * with {@code bindAddressHardFail} would fail with another message and exit 1), the journal
 * directory and the admin socket must not exist afterwards, and {@code --write-config-to}
 * refuses the same configuration without writing. Every case that could start the agent holds
 * its health port and sets {@code bindAddressHardFail}, so that a regression stops at the first
 * bind and never reaches the journal or the kernel of the test machine's namespace.
 */
class RunRefusesBeforeBindingTest {

    record Run(int exit, String err) {
    }

    static Run run(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        return new Run(cl.execute(args), err.toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "eventLog kafka|'kproxy:\n  eventLog:\n    type: kafka\n    kafka:\n      bootstrapServers: kafka:9092\n      topic: kproxy'"
                + "|kproxy.eventLog.kafka.cluster: required when eventLog.type is kafka",
        "fsyncWindow 1h|'kproxy:\n  fsyncWindow: 1h'|kproxy.fsyncWindow: must be greater than 0 and at most 1s (value \"1h0m0s\")",
    })
    void refusedWithExit2BeforeAnyPortOrJournal(String name, String yaml, String expected, @TempDir Path dir) throws Exception {
        try (ServerSocket held = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Path journal = dir.resolve("journal");
            Path socket = dir.resolve("admin.sock");
            Path config = Files.writeString(dir.resolve("config.yaml"), "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\n"
                    + "healthzBindAddress: 127.0.0.1:" + held.getLocalPort() + "\nmetricsBindAddress: 127.0.0.1:" + held.getLocalPort()
                    + "\nbindAddressHardFail: true\nclientConnection:\n  kubeconfig: " + dir.resolve("absent-kubeconfig") + "\n"
                    + yaml.replace("kproxy:\n", "kproxy:\n  journalDir: " + journal + "\n  adminSocket: " + socket + "\n")
                    + (yaml.startsWith("kproxy:") ? "" : "\nkproxy:\n  journalDir: " + journal + "\n  adminSocket: " + socket) + "\n");

            Run r = run("run", "--config", config.toString());
            assertThat(r.exit()).as(r.err()).isEqualTo(2);
            assertThat(r.err()).contains(config + ": invalid configuration").contains("\n  " + expected)
                    .doesNotContain("bind").doesNotContain("Exception");
            assertThat(journal).doesNotExist();
            assertThat(socket).doesNotExist();

            Path out = dir.resolve("effective.yaml");
            Run w = run("run", "--config", config.toString(), "--write-config-to", out.toString());
            assertThat(w.exit()).as(w.err()).isEqualTo(2);
            assertThat(w.err()).contains(expected);
            assertThat(out).doesNotExist();
        }
    }

    @Test
    void flagsNamingWhatThisBuildLacksAreRefusedTheSameWay(@TempDir Path dir) {
        Path out = dir.resolve("effective.yaml");
        Run r = run("run", "--proxy-mode", "ipvs", "--fsync-window", "2s", "--journal-dir", dir.resolve("journal").toString(),
                "--write-config-to", out.toString());
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains("--fsync-window (kproxy.fsyncWindow: must be greater than 0 and at most 1s")
                .as("ipvs mode has a backend that programs a kernel now (issue 21)").doesNotContain("--proxy-mode");
        assertThat(out).doesNotExist();
    }

    /** Issue 21: {@code --proxy-mode ipvs} (and {@code mode: ipvs}) passes validation; it was refused while ipvs could not program a kernel. */
    @Test
    void ipvsModeIsNoLongerRefused(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("effective.yaml");
        Run r = run("run", "--proxy-mode", "ipvs", "--journal-dir", dir.resolve("journal").toString(), "--write-config-to", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Files.readString(out)).contains("mode: ipvs");
        Path config = Files.writeString(dir.resolve("config.yaml"), "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\n"
                + "mode: ipvs\n");
        Path out2 = dir.resolve("effective2.yaml");
        Run c = run("run", "--config", config.toString(), "--write-config-to", out2.toString());
        assertThat(c.exit()).as(c.err()).isZero();
        assertThat(Files.readString(out2)).contains("mode: ipvs");
        assertThat(dir.resolve("journal")).doesNotExist();
    }

    @Test
    void aKubeconfigThatIsNotARegularFileIsRefusedBeforeTheAgentStarts(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("kubeconfig");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor()).isZero();
        Path journal = dir.resolve("journal");
        try (ServerSocket held = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            List<String> args = new ArrayList<>(List.of("run", "--kubeconfig", fifo.toString(), "--journal-dir", journal.toString(),
                    "--admin-socket", dir.resolve("admin.sock").toString(), "--healthz-bind-address", "127.0.0.1:" + held.getLocalPort(),
                    "--metrics-bind-address", "", "--bind-address-hard-fail", "--proxy-mode", "nftables"));
            Run r = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> run(args.toArray(String[]::new)));
            assertThat(r.exit()).as(r.err()).isEqualTo(2);
            assertThat(r.err()).contains("clientConnection.kubeconfig: ").contains("not a regular file (a FIFO)");
            assertThat(journal).doesNotExist();
        }
    }

    @Test
    void aMasterUrlThatIsNotOneIsRefusedBeforeTheAgentStarts(@TempDir Path dir) throws Exception {
        Path journal = dir.resolve("journal");
        // The held port with --bind-address-hard-fail: were the refusal to regress, the agent would
        // stop at its first bind, before the journal or the kernel.
        try (ServerSocket held = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Run r = run("run", "--master", "ftp://api:6443", "--journal-dir", journal.toString(), "--admin-socket",
                    dir.resolve("admin.sock").toString(), "--healthz-bind-address", "127.0.0.1:" + held.getLocalPort(),
                    "--metrics-bind-address", "", "--bind-address-hard-fail", "--proxy-mode", "nftables");
            assertThat(r.exit()).as(r.err()).isEqualTo(2);
            assertThat(r.err()).contains("--master \"ftp://api:6443\": must be the API server's http or https URL");
            assertThat(journal).doesNotExist();
        }
    }

    @Test
    void writeConfigToRefusesATargetThatIsNotARegularFile(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("out.yaml");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor()).isZero();
        Run r = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> run("run", "--write-config-to", fifo.toString()));
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--write-config-to " + fifo + " exists and is not a regular file");
    }
}
