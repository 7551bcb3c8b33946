package io.kproxy.app.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.config.ConfigTrees;
import io.kproxy.config.ConntrackConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The decision rules of upstream's conntrack settings (pkg/proxy/conntrack/sysctls.go and its
 * sysctls_test.go; cmd/kube-proxy/app/conntrack.go up to v1.29) against a fake root directory:
 * never the host's files.
 */
class ConntrackSettingsTest {

    @TempDir
    Path dir;
    FakeRoot fake;

    @BeforeEach
    void setUp() {
        fake = new FakeRoot(dir);
    }

    private List<Setting> apply(ConntrackConfig c) throws IOException {
        List<Setting> out = new ArrayList<>();
        ConntrackSettings.apply(c, fake.sysctls(), out::add);
        return out;
    }

    private static ConntrackConfig config(int maxPerCore, int min, long established, long closeWait, boolean liberal, long udp, long udpStream) {
        return new ConntrackConfig(maxPerCore, min, Duration.ofSeconds(established), Duration.ofSeconds(closeWait), liberal,
                Duration.ofSeconds(udp), Duration.ofSeconds(udpStream));
    }

    @Test
    void upstreamsDefaultsRaiseTheMaximumAndSetTheTcpTimeoutsInUpstreamsOrder() throws IOException {
        List<Setting> s = apply(ConfigTrees.defaults().conntrack());

        // 32768 per core x 8 CPUs = 262144 > min 131072; hashsize a quarter of it.
        assertThat(s).containsExactly(
                new Setting.Applied(Knob.NF_CONNTRACK_MAX, 65_536, 262_144),
                new Setting.Applied(Knob.CONNTRACK_HASHSIZE, 16_384, 65_536),
                new Setting.Applied(Knob.TCP_TIMEOUT_ESTABLISHED, 432_000, 86_400),
                new Setting.Applied(Knob.TCP_TIMEOUT_CLOSE_WAIT, 60, 3_600),
                new Setting.Skipped(Knob.TCP_BE_LIBERAL, "conntrack.tcpBeLiberal is false: the kernel's value stays"),
                new Setting.Skipped(Knob.UDP_TIMEOUT, "conntrack.udpTimeout is 0: the kernel's value stays"),
                new Setting.Skipped(Knob.UDP_TIMEOUT_STREAM, "conntrack.udpStreamTimeout is 0: the kernel's value stays"));
        assertThat(fake.get(Knob.NF_CONNTRACK_MAX)).isEqualTo(262_144);
        assertThat(fake.get(Knob.CONNTRACK_HASHSIZE)).isEqualTo(65_536);
        assertThat(fake.get(Knob.TCP_TIMEOUT_ESTABLISHED)).isEqualTo(86_400);
        assertThat(fake.get(Knob.TCP_TIMEOUT_CLOSE_WAIT)).isEqualTo(3_600);
        assertThat(fake.get(Knob.TCP_BE_LIBERAL)).isZero();
        assertThat(fake.get(Knob.UDP_TIMEOUT)).isEqualTo(30);
        assertThat(fake.get(Knob.UDP_TIMEOUT_STREAM)).isEqualTo(120);
    }

    @Test
    void everyValueSetWritesEveryKnob() throws IOException {
        apply(config(1, 100_000, 7_200, 600, true, 45, 150));
        assertThat(fake.all()).containsAllEntriesOf(Map.of(Knob.NF_CONNTRACK_MAX, 100_000L, Knob.CONNTRACK_HASHSIZE, 25_000L,
                Knob.TCP_TIMEOUT_ESTABLISHED, 7_200L, Knob.TCP_TIMEOUT_CLOSE_WAIT, 600L, Knob.TCP_BE_LIBERAL, 1L, Knob.UDP_TIMEOUT, 45L,
                Knob.UDP_TIMEOUT_STREAM, 150L));
    }

    @Test
    void zeroValuesLeaveEveryKnobAsItIs() throws IOException {
        Map<Knob, Long> before = fake.all();
        List<Setting> s = apply(config(0, 131_072, 0, 0, false, 0, 0));
        assertThat(s).hasSize(7).allMatch(x -> x instanceof Setting.Skipped);
        assertThat(s.getFirst()).isEqualTo(new Setting.Skipped(Knob.NF_CONNTRACK_MAX, "conntrack.maxPerCore is 0: the kernel's value stays"));
        assertThat(fake.all()).isEqualTo(before);
    }

    @Test
    void tcpBeLiberalFalseNeverTurnsTheKernelsSettingOff() throws IOException {
        fake.set(Knob.TCP_BE_LIBERAL, 1);
        apply(config(0, 0, 0, 0, false, 0, 0));
        assertThat(fake.get(Knob.TCP_BE_LIBERAL)).isEqualTo(1);
    }

    @Test
    void aMaximumOrHashsizeAlreadyHigherIsLeftAlone() throws IOException {
        fake.set(Knob.NF_CONNTRACK_MAX, 1_000_000).set(Knob.CONNTRACK_HASHSIZE, 300_000);
        List<Setting> s = apply(ConfigTrees.defaults().conntrack());
        assertThat(s.subList(0, 2)).containsExactly(
                new Setting.Kept(Knob.NF_CONNTRACK_MAX, 1_000_000, 262_144, "the kernel's value is at least the wanted one; it is never lowered"),
                new Setting.Kept(Knob.CONNTRACK_HASHSIZE, 300_000, 65_536,
                        "the kernel's value is at least a quarter of nf_conntrack_max; it is never lowered"));
        assertThat(fake.get(Knob.NF_CONNTRACK_MAX)).isEqualTo(1_000_000);
        assertThat(fake.get(Knob.CONNTRACK_HASHSIZE)).isEqualTo(300_000);
    }

    @Test
    void aHashsizeTooSmallIsRaisedEvenWhenTheMaximumIsRightAndKeptWhenOnlyTheMaximumIsWrong() throws IOException {
        // sysctls_test.go: "SetHashsize is called if max is correct but hashsize isn't", and the reverse.
        fake.set(Knob.NF_CONNTRACK_MAX, 262_144).set(Knob.CONNTRACK_HASHSIZE, 0);
        assertThat(apply(config(32_768, 0, 0, 0, false, 0, 0)).subList(0, 2)).extracting(x -> x.getClass().getSimpleName())
                .containsExactly("Kept", "Applied");
        fake.set(Knob.NF_CONNTRACK_MAX, 1).set(Knob.CONNTRACK_HASHSIZE, 65_536);
        assertThat(apply(config(32_768, 0, 0, 0, false, 0, 0)).subList(0, 2)).extracting(x -> x.getClass().getSimpleName())
                .containsExactly("Applied", "Kept");
    }

    @Test
    void aReadOnlySysIsRefusedWithUpstreamsMessageAndTheRestIsStillApplied() throws IOException {
        fake.sysfs("ro,nosuid,nodev,noexec,relatime");
        List<Setting> s = apply(ConfigTrees.defaults().conntrack());
        assertThat(s.get(1)).isEqualTo(new Setting.Refused(Knob.CONNTRACK_HASHSIZE, 16_384, 65_536,
                "CRI error: /sys is read-only: cannot modify conntrack limits, problems may arise later (If running Docker, see docker issue #24000)"));
        assertThat(s.get(1).warning()).isTrue();
        assertThat(fake.get(Knob.CONNTRACK_HASHSIZE)).isEqualTo(16_384);
        assertThat(fake.get(Knob.NF_CONNTRACK_MAX)).isEqualTo(262_144);
        assertThat(fake.get(Knob.TCP_TIMEOUT_ESTABLISHED)).isEqualTo(86_400);
    }

    @Test
    void outsideTheInitialNetworkNamespaceTheHostsKnobsAreRefusedAndTheNamespacesOnesApplied() throws IOException {
        fake.readOnly(Knob.NF_CONNTRACK_MAX);
        List<Setting> s = apply(ConfigTrees.defaults().conntrack());
        assertThat(s.subList(0, 2)).containsExactly(
                new Setting.Refused(Knob.NF_CONNTRACK_MAX, 65_536, 262_144, ConntrackSettings.NOT_INITIAL_NAMESPACE),
                new Setting.Refused(Knob.CONNTRACK_HASHSIZE, 16_384, 65_536, ConntrackSettings.NOT_INITIAL_NAMESPACE));
        assertThat(fake.get(Knob.NF_CONNTRACK_MAX)).isEqualTo(65_536);
        assertThat(fake.get(Knob.CONNTRACK_HASHSIZE)).isEqualTo(16_384);
        assertThat(fake.get(Knob.TCP_TIMEOUT_ESTABLISHED)).isEqualTo(86_400);
        assertThat(fake.get(Knob.TCP_TIMEOUT_CLOSE_WAIT)).isEqualTo(3_600);
    }

    @Test
    void aKnobThatCannotBeSetStopsTheStartNamingItAndHowToTurnItOffAfterReportingWhatWasDone() {
        fake.remove(Knob.TCP_TIMEOUT_CLOSE_WAIT);
        List<Setting> out = new ArrayList<>();
        assertThatThrownBy(() -> ConntrackSettings.apply(ConfigTrees.defaults().conntrack(), fake.sysctls(), out::add))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("could not set conntrack parameters from the configuration: net.netfilter.nf_conntrack_tcp_timeout_close_wait: "
                        + "NoSuchFileException")
                .hasMessageEndingWith("; to leave it to the node, set conntrack.tcpCloseWaitTimeout to 0");
        assertThat(out).hasSize(3);
        assertThat(out.get(2)).isEqualTo(new Setting.Applied(Knob.TCP_TIMEOUT_ESTABLISHED, 432_000, 86_400));
    }

    @Test
    void aTimeoutUnderOneSecondIsNotWrittenAsZero() throws IOException {
        List<Setting> s = apply(new ConntrackConfig(0, 0, Duration.ofMillis(500), Duration.ZERO, false, Duration.ZERO, Duration.ZERO));
        assertThat(s.get(2)).isInstanceOf(Setting.Skipped.class);
        assertThat(fake.get(Knob.TCP_TIMEOUT_ESTABLISHED)).isEqualTo(432_000);
    }

    @Test
    void aValueAlreadyInPlaceIsNotWrittenAgain() throws IOException {
        fake.set(Knob.TCP_TIMEOUT_ESTABLISHED, 86_400);
        assertThat(apply(ConfigTrees.defaults().conntrack()).get(2))
                .isEqualTo(new Setting.Kept(Knob.TCP_TIMEOUT_ESTABLISHED, 86_400, 86_400, "already the configured value"));
    }

    @Test
    void theMaximumIsSizedByTheMachinesOnlineCpus() throws IOException {
        fake.cpus("0-3,8,10-11\n");
        apply(config(40_000, 0, 0, 0, false, 0, 0));
        assertThat(fake.get(Knob.NF_CONNTRACK_MAX)).isEqualTo(7 * 40_000);
        assertThat(RootedSysctls.countCpuList("0")).isEqualTo(1);
        assertThat(RootedSysctls.countCpuList("0-127")).isEqualTo(128);
        fake.cpus("garbage");
        assertThat(fake.sysctls().onlineCpus()).isEqualTo(Runtime.getRuntime().availableProcessors());
    }

    @Test
    void aProcfsSysctlIsReadWhole() throws Exception {
        // Read only: the host's value, compared with what cat(1) prints (the JDK's Files.readString saw "4" for "432000").
        Path established = Path.of("/", Knob.TCP_TIMEOUT_ESTABLISHED.relativePath());
        Assumptions.assumeTrue(Files.isReadable(established), "no nf_conntrack sysctls on this machine");
        Process cat = new ProcessBuilder("cat", established.toString()).start();
        String expected = new String(cat.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        assertThat(cat.waitFor()).isZero();
        assertThat(Sysctls.host().read(Knob.TCP_TIMEOUT_ESTABLISHED)).isEqualTo(Long.parseLong(expected));
    }

    /** Upstream's TestGetConntrackMax and TestGetConntrackMax_Capped cases. */
    @ParameterizedTest
    @CsvSource({
        "0, 0, 8, 0",
        "67890, 1, 8, 543120",
        "1, 123456, 8, 123456",
        "0, 123456, 8, 0",
        "32768, 0, 512, 1048576",
        "32768, 131072, 2, 131072",
        "32768, 131072, 8, 262144",
    })
    void theMaximumIsPerCoreTimesCoresAtLeastMinAndCapped(int maxPerCore, int min, int cpus, long expected) {
        assertThat(ConntrackSettings.conntrackMax(maxPerCore, min, cpus)).isEqualTo(expected);
    }

    @Test
    void theMaximumIsTheLargerOfPerCoreTimesCoresAndMinBelowTheCap() {
        long seed = System.nanoTime();
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < 10_000; i++) {
            int perCore = r.nextInt(0, 70_000);
            int min = r.nextInt(0, 2_000_000);
            int cpus = r.nextInt(1, 257);
            long got = ConntrackSettings.conntrackMax(perCore, min, cpus);
            long scaled = (long) perCore * cpus;
            String why = "seed=" + seed + " perCore=" + perCore + " min=" + min + " cpus=" + cpus;
            if (perCore == 0) {
                assertThat(got).as(why).isZero();
            } else if (scaled > ConntrackSettings.MAX_LIMIT) {
                assertThat(got).as(why).isEqualTo(ConntrackSettings.MAX_LIMIT);
            } else {
                assertThat(got).as(why).isEqualTo(Math.max(scaled, min));
            }
        }
    }

    @Test
    void everyLogLineIsOneKeyValueLineWithoutQuotesInValues() {
        List<Setting> all = List.of(new Setting.Applied(Knob.UDP_TIMEOUT, 30, 45), new Setting.Kept(Knob.UDP_TIMEOUT, 45, 45, "a \"b\""),
                new Setting.Skipped(Knob.UDP_TIMEOUT, "x\ny"), new Setting.Refused(Knob.CONNTRACK_HASHSIZE, 1, 2, "r\\"),
                new Setting.Failed(Knob.OOM_SCORE_ADJ, -999, "AccessDeniedException: /proc/self/oom_score_adj\r\n"));
        for (Setting s : all) {
            String line = s.logLine();
            assertThat(line).startsWith("action=").doesNotContain("\n", "\r", "\\");
            assertThat(line.chars().filter(c -> c == '"').count()).as(line).isIn(0L, 2L);
        }
        assertThat(all.get(0).logLine()).isEqualTo("action=applied setting=net.netfilter.nf_conntrack_udp_timeout from=30 to=45");
    }
}
