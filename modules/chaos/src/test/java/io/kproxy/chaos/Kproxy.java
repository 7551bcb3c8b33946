package io.kproxy.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The {@code ./kproxy} launcher of this repository, as a process: the agent ({@link Agent}) and
 * the offline commands the invariants are checked with ({@code render}, {@code journal verify}).
 * It runs what Maven has just built ({@code KPROXY_SKIP_BUILD=1}: the reactor built the app
 * before this module). Stateless; {@link #run} blocks up to its timeout.
 */
final class Kproxy {

    /** Exit code and both outputs of one command. */
    record Result(int exit, String stdout, String stderr) {
    }

    /** The agent's {@code kproxy.source.minWatchTimeoutSeconds}. */
    static final int MIN_WATCH_TIMEOUT_SECONDS = 15;

    private Kproxy() {
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

    static ProcessBuilder builder(List<String> prefix, List<String> args) {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(root().resolve("kproxy").toString());
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("KPROXY_SKIP_BUILD", "1");
        // Watches of 15-30 s (upstream: 5-10 min), so that a half-open one is noticed within the
        // convergence bound (docs/operations.md, "Watch liveness").
        pb.environment().put("KPROXY_JAVA_OPTS", "-Xmx128m -XX:TieredStopAtLevel=1 -Dkproxy.source.minWatchTimeoutSeconds="
                + MIN_WATCH_TIMEOUT_SECONDS);
        return pb;
    }

    /** Runs an offline command in the runner's own namespace (they touch no network). */
    static Result run(int timeoutSeconds, String... args) {
        try {
            Process p = builder(List.of(), List.of(args)).start();
            p.getOutputStream().close();
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p, false));
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p, true));
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                return new Result(-1, out.join(), "timed out after " + timeoutSeconds + " s; " + err.join());
            }
            return new Result(p.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            return new Result(-1, "", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "", "interrupted");
        }
    }

    private static String read(Process p, boolean err) {
        try {
            return new String((err ? p.getErrorStream() : p.getInputStream()).readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return e.toString();
        }
    }
}
