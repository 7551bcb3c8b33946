package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The time-travel commands through the real launcher ({@code ./kproxy} on the module path, a
 * separate process): the history module and both backends must be on the module path, and
 * standard output must carry exactly what the in-process command prints.
 */
class TimeTravelLaunchIT {

    private static final String SAMPLE = TimeTravelCommandsTest.SAMPLE.toAbsolutePath().normalize().toString();

    @Test
    void renderAtATimeThroughTheLauncherPrintsWhatTheCommandComputes() throws Exception {
        KproxyLaunchIT.Result r = KproxyLaunchIT.launch("render", "--journal", SAMPLE, "--at", TimeTravelCommandsTest.BAD_TIME);
        RenderCommandTest.Run inProcess = RenderCommandTest.run("render", "--journal", SAMPLE, "--at", TimeTravelCommandsTest.BAD_TIME);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo(inProcess.out());
        assertThat(r.err()).contains("equals the one the sync recorded");
    }

    @Test
    void aBadTimeThroughTheLauncherIsOneLineAndExitFour() throws Exception {
        KproxyLaunchIT.Result r = KproxyLaunchIT.launch("audit", "--journal", SAMPLE, "shop/checkout", "--since", "2026-11-22T03:10:00Z");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("reached the kernel at 2026-11-22T03:12:06.004Z");
        KproxyLaunchIT.Result before = KproxyLaunchIT.launch("diff", "--journal", SAMPLE, "--from", "2020-01-01T00:00:00Z", "--to", "now");
        assertThat(before.exit()).isEqualTo(4);
        assertThat(before.err().lines().toList()).hasSize(1);
        assertThat(before.err()).startsWith("kproxy diff: 2020-01-01T00:00:00.000Z is before the journal starts");
    }
}
