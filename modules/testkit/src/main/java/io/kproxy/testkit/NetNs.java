package io.kproxy.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A network namespace this test created ({@code ip netns add}), with loopback up and no route
 * out of the machine, deleted again by {@link #close()}. Everything that programs the kernel in
 * a test runs inside one of these, never in the machine's own namespace.
 *
 * <p>Names are {@code kp-<purpose>-<random>} so that concurrent test runs never collide.
 * Commands run with a timeout; a command that exits non-zero throws with its stderr.
 * Thread-safe for concurrent {@link #exec} calls.
 */
public final class NetNs implements AutoCloseable {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final long TIMEOUT_SECONDS = 60;

    private final String name;
    private volatile boolean closed;

    private NetNs(String name) {
        this.name = name;
    }

    /** Creates {@code kp-<purpose>-<random>} with loopback up. Call {@link KernelTests#require} first. */
    public static NetNs create(String purpose) {
        String clean = purpose.replaceAll("[^a-z0-9]", "");
        String name = "kp-" + clean.substring(0, Math.min(clean.length(), 8)) + "-" + Integer.toHexString(RANDOM.nextInt() & 0xFFFFFF);
        run(List.of("ip", "netns", "add", name), null);
        NetNs ns = new NetNs(name);
        try {
            ns.exec("ip", "link", "set", "lo", "up");
        } catch (RuntimeException e) {
            ns.close();
            throw e;
        }
        return ns;
    }

    public String name() {
        return name;
    }

    /** Runs a command inside the namespace; returns its stdout. */
    public String exec(String... command) {
        return execWithInput(null, command);
    }

    /** Runs a command inside the namespace with {@code stdin} as its input; returns its stdout. */
    public String execWithInput(String stdin, String... command) {
        Result r = tryExecWithInput(stdin, command);
        if (r.exitCode() != 0) {
            throw new IllegalStateException("in netns " + name + ": '" + String.join(" ", command) + "' exited " + r.exitCode() + ": "
                    + r.stderr().strip());
        }
        return r.stdout();
    }

    /** Runs a command inside the namespace and returns whatever happened. */
    public Result tryExecWithInput(String stdin, String... command) {
        if (closed) {
            throw new IllegalStateException("netns " + name + " is closed");
        }
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", name));
        full.addAll(List.of(command));
        return run(full, stdin);
    }

    /** The prefix to run a process inside this namespace: {@code ip netns exec <name>}. */
    public List<String> prefix() {
        return List.of("ip", "netns", "exec", name);
    }

    /** Exit code and output of a command. */
    public record Result(int exitCode, String stdout, String stderr) {
    }

    static Result run(List<String> command, String stdin) {
        try {
            Process p = new ProcessBuilder(command).start();
            CompletableFuture<String> out = drain(p.getInputStream());
            CompletableFuture<String> err = drain(p.getErrorStream());
            try (OutputStream in = p.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("'" + String.join(" ", command) + "' timed out after " + TIMEOUT_SECONDS + "s");
            }
            return new Result(p.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            throw new IllegalStateException("cannot run '" + String.join(" ", command) + "': " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running '" + String.join(" ", command) + "'", e);
        }
    }

    private static CompletableFuture<String> drain(InputStream s) {
        return CompletableFuture.supplyAsync(() -> {
            try (s) {
                return new String(s.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "";
            }
        });
    }

    /** Deletes the namespace (and with it every interface and rule inside). Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        run(List.of("ip", "netns", "del", name), null);
    }
}
