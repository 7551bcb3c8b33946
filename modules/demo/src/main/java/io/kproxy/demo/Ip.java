package io.kproxy.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code ip} (iproute2) and friends for the demo's namespaces; every command is bounded in
 * time and a failure says which command failed and what it printed. Stateless; blocks.
 */
final class Ip {

    /** A command that failed. */
    static final class Failed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Failed(String message) {
            super(message);
        }
    }

    private Ip() {
    }

    /** Runs {@code command}; returns its standard output. */
    static String run(String... command) {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        try {
            Process p = pb.start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new Failed(String.join(" ", command) + ": timed out");
            }
            String text = new String(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new Failed(String.join(" ", command) + ": exit " + p.exitValue() + ": " + text.strip());
            }
            return text;
        } catch (IOException e) {
            throw new Failed(String.join(" ", command) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Failed(String.join(" ", command) + ": interrupted");
        }
    }

    /** {@code ip -n ns ARGS...}: a command inside namespace {@code ns}. */
    static String in(String ns, String... args) {
        List<String> cmd = new ArrayList<>(List.of("ip", "-n", ns));
        cmd.addAll(List.of(args));
        return run(cmd.toArray(String[]::new));
    }

    /** Whether {@code tool} is on the path. */
    static boolean available(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin").split(":")) {
            if (!dir.isEmpty() && java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
