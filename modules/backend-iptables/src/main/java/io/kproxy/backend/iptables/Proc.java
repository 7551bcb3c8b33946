package io.kproxy.backend.iptables;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs an iptables tool as a process, inside a named network namespace when given
 * ({@code ip netns exec}), with a time limit. Thread-safe; blocks.
 */
final class Proc {

    /** Exit code and output. Exit code -1 means the time limit passed, -2 that the tool could not start. */
    record Result(int exitCode, String stdout, String stderr) {
        boolean ok() {
            return exitCode == 0;
        }
    }

    private final Optional<String> netns;
    private final Duration timeout;

    Proc(Optional<String> netns, Duration timeout) {
        this.netns = netns;
        this.timeout = timeout;
    }

    Optional<String> netns() {
        return netns;
    }

    Result run(List<String> command, String stdin) {
        List<String> full = new ArrayList<>();
        netns.ifPresent(n -> full.addAll(List.of("ip", "netns", "exec", n)));
        full.add(resolve(command.getFirst()));
        full.addAll(command.subList(1, command.size()));
        try {
            Process p = new ProcessBuilder(full).start();
            CompletableFuture<String> out = drain(p.getInputStream());
            CompletableFuture<String> err = drain(p.getErrorStream());
            try (OutputStream in = p.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                // The tool exited before reading all its input; its exit code and stderr say why.
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

    /** True when {@code tool} is an executable on PATH or in /usr/sbin, /sbin. */
    static boolean exists(String tool) {
        return !resolve(tool).equals(tool) || tool.startsWith("/");
    }

    /** The absolute path of a tool (PATH, then /usr/sbin and /sbin, where iptables lives), or the name itself. */
    static String resolve(String tool) {
        if (tool.contains("/")) {
            return tool;
        }
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        for (String d : dirs) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, tool))) {
                return Path.of(d, tool).toString();
            }
        }
        return tool;
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
