package io.kproxy.testkit.uml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The guest's init script: mounts, module loading, quoting of the command, the output and exit files. */
class UmlInitTest {

    @Test
    void scriptMountsLoadsRunsAndPowersOff() {
        UmlOptions o = new UmlOptions(1024, Duration.ofSeconds(30), List.of("ip_vs", "dummy"), Map.of("B", "x y", "A", "it's"));
        String s = UmlInit.script("/var/tmp/kproxy-uml/run-1", "6.1.176", o, List.of("echo", "a b", "c'd"));
        assertThat(s).startsWith("#!/bin/sh\n")
                .contains("mount -t tmpfs tmpfs /run; mount -t tmpfs tmpfs /tmp\n")
                .contains("ln -s /usr/lib/uml/modules/6.1.176 /run/mods/lib/modules/6.1.176\n")
                .contains("mount -t hostfs -o '/var/tmp/kproxy-uml/run-1' none /run/kproxy-uml")
                .contains("for m in ip_vs dummy; do modprobe -d /run/mods \"$m\" || mark \"modprobe-failed $m\"; done\n")
                .contains("export A='it'\\''s'\nexport B='x y'\n")
                .contains("'echo' 'a b' 'c'\\''d' > /run/kproxy-uml/output 2>&1 < /dev/null\necho $? > /run/kproxy-uml/exit\n")
                .contains("echo o > /proc/sysrq-trigger\n");
        assertThat(s.indexOf("mark command-start")).isGreaterThan(s.indexOf("modprobe"));
    }

    @Test
    void optionsAreValidated() {
        assertThatThrownBy(() -> new UmlOptions(64, Duration.ofSeconds(1), List.of(), Map.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new UmlOptions(1024, Duration.ZERO, List.of(), Map.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new UmlOptions(1024, Duration.ofSeconds(1), List.of("ip_vs; reboot"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new UmlOptions(1024, Duration.ofSeconds(1), List.of(), Map.of("A-B", "x")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> UmlInit.join(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void classPathNamesEntriesWhereTheGuestSeesThem() {
        // A CI clone under /tmp: its target/ directories must stay on the guest's class path.
        assertThat(UmlClassPath.inGuest(java.nio.file.Path.of("/tmp/ci/modules/x/target/test-classes")))
                .isEqualTo(java.nio.file.Path.of(UmlInit.HOST_TMP + "/ci/modules/x/target/test-classes"));
        assertThat(UmlClassPath.inGuest(java.nio.file.Path.of("/var/tmp/x.jar"))).isEqualTo(java.nio.file.Path.of("/var/tmp/x.jar"));
        assertThat(UmlClassPath.inGuest(java.nio.file.Path.of("/tmpfoo/x.jar"))).isEqualTo(java.nio.file.Path.of("/tmpfoo/x.jar"));
        assertThat(UmlClassPath.current()).isNotEmpty().noneMatch(e -> e.startsWith("/tmp/"))
                .anyMatch(e -> e.endsWith("test-classes"));
    }
}
