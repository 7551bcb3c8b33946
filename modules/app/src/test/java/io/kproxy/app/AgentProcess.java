package io.kproxy.app;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test-only: {@code ./kproxy} as a separate process, the real launch command on the module path
 * (tests inside the build can pass while the real launch fails, docs/dependencies.md), optionally
 * inside a network namespace ({@code ip netns exec}). The launcher {@code exec}s the JVM, so the
 * process is the agent itself: {@link #kill9()} is a SIGKILL of the agent, {@link #terminate()}
 * a SIGTERM. Output goes to a log file under {@code target/}.
 */
final class AgentProcess implements AutoCloseable {

    private final Process process;
    private final Path log;

    private AgentProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** The repository root (the launcher's directory), from the module's working directory. */
    static Path root() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isExecutable(p.resolve("kproxy"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("no ./kproxy launcher above " + Path.of("").toAbsolutePath());
        }
        return p;
    }

    /** The launcher and {@code args}, prefixed by {@code prefix} (e.g. {@code ip netns exec ns}). */
    static List<String> command(List<String> prefix, List<String> args) {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(root().resolve("kproxy").toString());
        cmd.addAll(args);
        return cmd;
    }

    /** A ProcessBuilder for the launcher that uses what Maven has just built (no nested build). */
    static ProcessBuilder builder(List<String> command) {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("KPROXY_SKIP_BUILD", "1");
        pb.environment().put("KPROXY_JAVA_OPTS", "-Xmx256m -XX:+UseSerialGC");
        return pb;
    }

    static AgentProcess start(List<String> prefix, List<String> args, String logName) throws IOException {
        return startCommand(command(prefix, args), logName);
    }

    /** As {@link #start(List, List, String)} with other JVM options (a measurement at scale needs a larger heap). */
    static AgentProcess start(List<String> prefix, List<String> args, String logName, String javaOpts) throws IOException {
        Path log = Path.of("target", logName);
        Files.createDirectories(log.getParent());
        ProcessBuilder pb = builder(command(prefix, args)).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("KPROXY_JAVA_OPTS", javaOpts);
        return new AgentProcess(pb.start(), log);
    }

    /** Any command that ends in {@code exec}ing the agent (ImageIT: the image's entrypoint, entered with chroot). */
    static AgentProcess startCommand(List<String> command, String logName) throws IOException {
        Path log = Path.of("target", logName);
        Files.createDirectories(log.getParent());
        ProcessBuilder pb = builder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        return new AgentProcess(pb.start(), log);
    }

    boolean alive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    /** SIGKILL: no shutdown hook runs, nothing is cleaned up. */
    void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM, then the exit code (143 when the JVM ended on the signal after its shutdown hooks). */
    int terminate() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("agent did not stop within 60 s after SIGTERM; see " + log);
        }
        return process.exitValue();
    }

    /** The agent's output so far (for assertions and failure messages). */
    String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    File logFile() {
        return log.toFile();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
