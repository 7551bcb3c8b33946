package io.kproxy.app.node;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Objects;

/**
 * {@link Sysctls} over the files of a directory laid out like {@code /}. Writes never create a
 * file: a knob the kernel does not have (nf_conntrack not loaded) fails instead.
 *
 * @param root {@code /} on a node; a temporary directory in tests
 */
record RootedSysctls(Path root) implements Sysctls {

    RootedSysctls {
        Objects.requireNonNull(root, "root");
    }

    private Path file(Knob knob) {
        return root.resolve(knob.relativePath());
    }

    /**
     * The whole file in one read(2). A procfs sysctl answers a read at a non-zero offset with
     * end-of-file (kernel/sysctl.c, __do_proc_dointvec), and the JDK's Files.readAllBytes on a
     * file whose size is 0 reads its first byte alone: it saw "4" for "432000".
     */
    private static String text(Path p) throws IOException {
        try (InputStream in = Files.newInputStream(p)) {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    @Override
    public long read(Knob knob) throws IOException {
        String text = text(file(knob)).strip();
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IOException(file(knob) + " holds '" + text + "', not an integer", e);
        }
    }

    @Override
    public void write(Knob knob, long value) throws IOException {
        Files.writeString(file(knob), Long.toString(value), StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
    }

    @Override
    public boolean ownerWritable(Knob knob) throws IOException {
        return Files.getPosixFilePermissions(file(knob)).contains(PosixFilePermission.OWNER_WRITE);
    }

    @Override
    public boolean sysfsWritable() throws IOException {
        Path mounts = root.resolve("proc/mounts");
        for (String line : text(mounts).split("\n")) {
            String[] f = line.split(" ");
            if (f.length >= 4 && f[2].equals("sysfs")) {
                return f[3].split(",")[0].equals("rw");
            }
        }
        throw new IOException("no sysfs mounted (" + mounts + ")");
    }

    @Override
    public int onlineCpus() {
        try {
            int n = countCpuList(text(root.resolve("sys/devices/system/cpu/online")));
            if (n > 0) {
                return n;
            }
        } catch (IOException | IllegalArgumentException e) {
            // fall through: the JVM's count, as upstream falls back to runtime.NumCPU()
        }
        return Runtime.getRuntime().availableProcessors();
    }

    /** The number of CPUs in a kernel CPU list such as {@code 0-3,8,10-11}. */
    static int countCpuList(String list) {
        int n = 0;
        for (String part : List.of(list.strip().split(","))) {
            String[] range = part.split("-", -1);
            if (range.length == 1) {
                Integer.parseInt(range[0]);
                n++;
            } else if (range.length == 2) {
                int from = Integer.parseInt(range[0]);
                int to = Integer.parseInt(range[1]);
                if (to < from) {
                    throw new IllegalArgumentException("descending CPU range " + part);
                }
                n += to - from + 1;
            } else {
                throw new IllegalArgumentException("not a CPU range: " + part);
            }
        }
        return n;
    }
}
