package io.kproxy.chaos;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A small tmpfs under the agent's journal, which the runner fills and frees: the journal's
 * writes and fsyncs fail with ENOSPC while it is full. Mounted in the runner's own mount
 * namespace on a directory of the run's private temporary directory (the agent, started later by
 * {@code ip netns exec}, sees it through its copy of the mounts), and unmounted at the end.
 * Not thread-safe.
 */
final class DiskFull implements AutoCloseable {

    /** Room for a long soak's journal (a few MiB) many times over, and little to fill. */
    static final String SIZE = "64m";
    private static final int CHUNK = 1 << 20;

    private final Path mount;
    private final Path filler;

    private DiskFull(Path mount) {
        this.mount = mount;
        this.filler = mount.resolve("filler");
    }

    /** Mounts a {@value #SIZE} tmpfs on {@code mount} (created if missing). */
    static DiskFull mount(Path mount) throws IOException, InterruptedException {
        Files.createDirectories(mount);
        run(List.of("mount", "-t", "tmpfs", "-o", "size=" + SIZE + ",mode=0700", "kproxy-chaos-journal", mount.toString()));
        return new DiskFull(mount);
    }

    Path root() {
        return mount;
    }

    /** Writes zeros until the file system refuses (bounded by its size); returns the bytes written. */
    long fill() throws IOException {
        long written = 0;
        byte[] zeros = new byte[CHUNK];
        try (OutputStream o = Files.newOutputStream(filler)) {
            for (int i = 0; i < 1024; i++) {
                o.write(zeros);
                written += CHUNK;
            }
        } catch (IOException e) {
            // "No space left on device": full, as wanted
        }
        return written;
    }

    /** Frees what {@link #fill()} took. */
    void free() throws IOException {
        Files.deleteIfExists(filler);
    }

    @Override
    public void close() throws IOException {
        free();
        try {
            run(List.of("umount", "-l", mount.toString()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while unmounting " + mount, e);
        }
    }

    private static void run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", cmd) + " failed: " + out.strip());
        }
    }
}
