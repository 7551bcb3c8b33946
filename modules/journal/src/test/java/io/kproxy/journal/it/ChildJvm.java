package io.kproxy.journal.it;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs a main class of the test sources in a child JVM, on the class path of this test JVM
 * (module path, class path and the module's own classes flattened into one class path), and
 * reads its stdout line by line. The children speak on stdout; logs go to stderr.
 */
final class ChildJvm implements AutoCloseable {

    private final Process process;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Thread pump;
    private static final String EOF = "\u0000EOF";

    private ChildJvm(Process process) {
        this.process = process;
        this.pump = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String l;
                while ((l = r.readLine()) != null) {
                    lines.add(l);
                }
            } catch (IOException e) {
                lines.add("IOERROR " + e);
            } finally {
                lines.add(EOF);
            }
        });
    }

    /** The java command line for {@code main} with {@code args}. */
    static List<String> javaCommand(Class<?> main, String... args) {
        Set<String> cp = new LinkedHashSet<>();
        cp.add(Path.of("target", "test-classes").toAbsolutePath().toString());
        cp.add(Path.of("target", "classes").toAbsolutePath().toString());
        for (String prop : List.of("jdk.module.path", "java.class.path")) {
            String v = System.getProperty(prop);
            if (v != null) {
                for (String e : v.split(File.pathSeparator)) {
                    if (!e.isBlank() && Files.exists(Path.of(e))) {
                        cp.add(e);
                    }
                }
            }
        }
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Xmx256m", "--sun-misc-unsafe-memory-access=allow",
                "-cp", String.join(File.pathSeparator, cp), main.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    static ChildJvm start(List<String> command, Path stderr) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()));
        return new ChildJvm(pb.start());
    }

    /** The next stdout line, or null at end of output or after {@code seconds}. */
    String nextLine(long seconds) throws InterruptedException {
        String l = lines.poll(seconds, TimeUnit.SECONDS);
        return l == null || l.equals(EOF) ? null : l;
    }

    /** Every remaining line until the child's stdout closes (bounded by {@code seconds}). */
    List<String> rest(long seconds) throws InterruptedException {
        List<String> out = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String l;
        while (System.nanoTime() < deadline && (l = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) != null && !l.equals(EOF)) {
            out.add(l);
        }
        return out;
    }

    Process process() {
        return process;
    }

    int waitFor(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            throw new IllegalStateException("child did not finish within " + seconds + " s");
        }
        pump.join(TimeUnit.SECONDS.toMillis(10));
        return process.exitValue();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
