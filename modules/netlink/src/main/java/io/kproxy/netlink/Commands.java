package io.kproxy.netlink;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a command (inside a named network namespace when given) with a time limit: the one
 * process runner of the production modules (the {@code nft} and {@code conntrack} fallbacks here,
 * the iptables tools of {@code io.kproxy.backend.iptables}). Never throws for a command that
 * fails: the {@link Result} says what happened. Arguments must not be null but {@code stdin}.
 * Thread-safe; blocks until the command exited or the time limit passed.
 */
public final class Commands {

    /**
     * Exit code and output; never null. Exit code -1 means the time limit passed (or the wait was
     * interrupted), -2 that the command could not start; stderr then says so.
     */
    public record Result(int exitCode, String stdout, String stderr) {
        /** True when the command exited 0. */
        public boolean ok() {
            return exitCode == 0;
        }
    }

    private Commands() {
    }

    /** {@code command} prefixed with {@code ip netns exec <netns>} when a namespace is given. */
    public static List<String> inNetns(Optional<String> netns, List<String> command) {
        if (netns.isEmpty()) {
            return command;
        }
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", netns.get()));
        full.addAll(command);
        return full;
    }

    /** Runs {@code command} with {@code stdin} (none when null) as its input. */
    public static Result run(List<String> command, String stdin, Duration timeout) {
        return run(command, stdin, timeout, command);
    }

    /**
     * Runs {@code command} with {@code stdin} (none when null) as its input; failure messages name
     * the command as {@code shownAs} (the caller's words, without namespace prefix or resolved path).
     */
    public static Result run(List<String> command, String stdin, Duration timeout, List<String> shownAs) {
        String shown = String.join(" ", shownAs);
        try {
            Process p = new ProcessBuilder(command).start();
            CompletableFuture<String> out = drain(p.getInputStream());
            CompletableFuture<String> err = drain(p.getErrorStream());
            try (OutputStream in = p.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                // The command exited before reading all its input; its exit code and stderr say why.
            }
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return new Result(-1, "", "'" + shown + "' timed out after " + timeout);
            }
            return new Result(p.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            return new Result(-2, "", "cannot run '" + shown + "': " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "", "interrupted running '" + shown + "'");
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
}
