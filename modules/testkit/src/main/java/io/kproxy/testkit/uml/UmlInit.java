package io.kproxy.testkit.uml;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The guest's PID 1, as a shell script (pure text; the runner writes it under {@link Uml#HOST_WORK_ROOT}).
 *
 * <p>The root filesystem is the host's {@code /}, read-only through hostfs, so every write goes
 * to tmpfs: {@code /run} (which holds {@code /run/netns} for {@code ip netns}, and the module
 * tree {@code modprobe -d} reads) and {@code /tmp}. A tmpfs on {@code /tmp} hides the host's
 * {@code /tmp}, which is why the runner's host-side files live under {@code /var/tmp}; the host's
 * {@code /tmp} is mounted read-only at {@link #HOST_TMP} instead (a checkout or a build under
 * {@code /tmp}, as a CI clone may be, stays readable; {@link UmlClassPath} maps its entries). The run's
 * host directory is mounted read-write at {@link #GUEST_DIR}: the command's output and exit code
 * are written there. The runner's marks go to the console ({@code KPROXY-UML <mark> <uptime>}).
 * The script powers the guest off with sysrq, so UML exits once the command is done.
 */
final class UmlInit {

    /** Where the guest sees the run's host directory. */
    static final String GUEST_DIR = "/run/kproxy-uml";
    static final String MARK = "KPROXY-UML";
    /** Where the guest sees the host's {@code /tmp} (read-only). */
    static final String HOST_TMP = "/run/host-tmp";

    private UmlInit() {
    }

    static String script(String hostDir, String kernelVersion, UmlOptions options, List<String> command) {
        StringBuilder s = new StringBuilder();
        s.append("#!/bin/sh\n");
        s.append("export PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp\n");
        s.append("mark() { echo \"").append(MARK).append(" $1 $(cut -d' ' -f1 /proc/uptime)\"; }\n");
        s.append("mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t tmpfs tmpfs /run; mount -t tmpfs tmpfs /tmp\n");
        s.append("mkdir -p /run/netns /run/mods/lib/modules ").append(GUEST_DIR).append(' ').append(HOST_TMP).append('\n');
        s.append("mount -t hostfs -o /tmp none ").append(HOST_TMP).append(" && mount -o remount,ro ").append(HOST_TMP)
                .append(" || mark host-tmp-failed\n");
        s.append("ln -s /usr/lib/uml/modules/").append(kernelVersion).append(" /run/mods/lib/modules/").append(kernelVersion).append('\n');
        s.append("mount -t hostfs -o ").append(quote(hostDir)).append(" none ").append(GUEST_DIR)
                .append(" || { mark hostfs-failed; echo o > /proc/sysrq-trigger; sleep 10; }\n");
        s.append("mark booted\n");
        s.append("for m in");
        for (String m : options.modules()) {
            s.append(' ').append(m);
        }
        s.append("; do modprobe -d /run/mods \"$m\" || mark \"modprobe-failed $m\"; done\n");
        s.append("ip link set lo up\n");
        for (Map.Entry<String, String> e : new TreeMap<>(options.env()).entrySet()) {
            s.append("export ").append(e.getKey()).append('=').append(quote(e.getValue())).append('\n');
        }
        s.append("cd /tmp\n");
        s.append("mark command-start\n");
        s.append(join(command)).append(" > ").append(GUEST_DIR).append("/output 2>&1 < /dev/null\n");
        s.append("echo $? > ").append(GUEST_DIR).append("/exit\n");
        s.append("mark command-end\n");
        s.append("sync\n");
        s.append("echo o > /proc/sysrq-trigger\n");
        s.append("sleep 10\n");
        return s.toString();
    }

    static String join(List<String> command) {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("an empty command");
        }
        StringBuilder s = new StringBuilder();
        for (String a : command) {
            if (!s.isEmpty()) {
                s.append(' ');
            }
            s.append(quote(a));
        }
        return s.toString();
    }

    /** A POSIX shell single-quoted word. */
    static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
