package io.kproxy.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One life of the agent: {@code ./kproxy run} inside the node's namespace ({@code ip netns exec}
 * execs the launcher, which execs the JVM, so the process is the agent itself and
 * {@link #kill9()} is a SIGKILL of it). Its output goes to a log file. RSS and open file
 * descriptors are read from {@code /proc}. Not thread-safe.
 */
final class Agent implements AutoCloseable {

    private final Process process;
    private final Path log;

    private Agent(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    static Agent start(List<String> netnsPrefix, List<String> args, Path log) throws IOException {
        Files.createDirectories(log.getParent());
        Process p = Kproxy.builder(netnsPrefix, args).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        p.getOutputStream().close();
        return new Agent(p, log);
    }

    boolean alive() {
        return process.isAlive();
    }

    /** SIGKILL: no shutdown hook runs, nothing is flushed or cleaned up. */
    void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM and the exit code (143 when the JVM ended on the signal after its hooks); -1 if it had to be killed. */
    int terminate() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }

    /** Resident set size in KiB from {@code /proc/PID/status}, or -1 when the process is gone. */
    long rssKib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** Open file descriptors, or -1 when the process is gone. */
    int openFds() {
        try (var fds = Files.list(Path.of("/proc", Long.toString(process.pid()), "fd"))) {
            return (int) fds.count();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    Path log() {
        return log;
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
