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

/** Runs a command (inside a named network namespace when given) with a time limit. */
final class Commands {

    record Result(int exitCode, String stdout, String stderr) {
    }

    private Commands() {
    }

    static List<String> inNetns(Optional<String> netns, List<String> command) {
        if (netns.isEmpty()) {
            return command;
        }
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", netns.get()));
        full.addAll(command);
        return full;
    }

    static Result run(List<String> command, String stdin, Duration timeout) {
        try {
            Process p = new ProcessBuilder(command).start();
            CompletableFuture<String> out = drain(p.getInputStream());
            CompletableFuture<String> err = drain(p.getErrorStream());
            try (OutputStream in = p.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return new Result(-1, "", "'" + String.join(" ", command) + "' timed out after " + timeout);
            }
            return new Result(p.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            return new Result(-2, "", "cannot run '" + String.join(" ", command) + "': " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "", "interrupted running '" + String.join(" ", command) + "'");
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
