package io.kproxy.app.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumMap;
import java.util.Map;

/**
 * Test-only: a directory laid out like {@code /} with the files {@link Sysctls} reads, holding a
 * fresh kernel's values (this machine's kernel in a new namespace: timeouts 432000/60, UDP 30/120,
 * not liberal), 8 online CPUs, sysfs mounted rw and an OOM score of 0. Machine-wide knobs are
 * only ever tested here, never on the host.
 */
final class FakeRoot {

    final Path root;

    FakeRoot(Path root) {
        this.root = root;
        set(Knob.NF_CONNTRACK_MAX, 65_536);
        set(Knob.CONNTRACK_HASHSIZE, 16_384);
        set(Knob.TCP_TIMEOUT_ESTABLISHED, 432_000);
        set(Knob.TCP_TIMEOUT_CLOSE_WAIT, 60);
        set(Knob.TCP_BE_LIBERAL, 0);
        set(Knob.UDP_TIMEOUT, 30);
        set(Knob.UDP_TIMEOUT_STREAM, 120);
        set(Knob.OOM_SCORE_ADJ, 0);
        write("sys/devices/system/cpu/online", "0-7\n");
        sysfs("rw,nosuid,nodev,noexec,relatime");
    }

    Sysctls sysctls() {
        return Sysctls.under(root);
    }

    FakeRoot set(Knob k, long value) {
        write(k.relativePath(), value + "\n");
        return this;
    }

    long get(Knob k) {
        try {
            return Long.parseLong(Files.readString(root.resolve(k.relativePath())).strip());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Map<Knob, Long> all() {
        Map<Knob, Long> m = new EnumMap<>(Knob.class);
        for (Knob k : Knob.values()) {
            m.put(k, get(k));
        }
        return m;
    }

    /** The mode the kernel gives nf_conntrack_max outside the initial network namespace. */
    FakeRoot readOnly(Knob k) {
        try {
            Files.setPosixFilePermissions(root.resolve(k.relativePath()), PosixFilePermissions.fromString("r--r--r--"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    FakeRoot sysfs(String options) {
        write("proc/mounts", "proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0\nsysfs /sys sysfs " + options + " 0 0\n");
        return this;
    }

    FakeRoot cpus(String online) {
        write("sys/devices/system/cpu/online", online);
        return this;
    }

    void remove(Knob k) {
        try {
            Files.delete(root.resolve(k.relativePath()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void write(String relative, String text) {
        try {
            Path p = root.resolve(relative);
            Files.createDirectories(p.getParent());
            Files.writeString(p, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
