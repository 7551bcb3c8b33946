package io.kproxy.testkit.uml;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs one command inside a User-Mode Linux guest (Debian's {@code user-mode-linux}: a Linux
 * 6.1 kernel that runs as an ordinary host process, with {@code ip_vs}, {@code ip_set},
 * {@code dummy}, {@code veth} as modules) and returns its output and exit code. The guest's root
 * is the host's {@code /}, read-only through hostfs, so it runs the host's JDK, tools and the
 * test classes from {@code target/}; it has no network device towards the host, so nothing it
 * programs can reach the machine's own network. How it works and what the kernel lacks:
 * docs/uml.md.
 *
 * <p>Each run gets a fresh directory under {@link #HOST_WORK_ROOT} (not {@code /tmp}: the guest
 * mounts tmpfs there and would not see it), holding the init script and the command's output;
 * it is deleted afterwards unless {@code KPROXY_UML_KEEP=1}. The run is bounded by the options'
 * timeout, after which the UML process and its helper processes are killed by id.
 *
 * <p>Thread-safe (each run is independent); {@link #run} blocks for the whole run.
 */
public final class Uml {

    /** The UML kernel binary (on PATH). */
    public static final String KERNEL = "linux.uml";
    /** Where the UML package keeps the kernel's modules, one directory per kernel version. */
    public static final String MODULES = "/usr/lib/uml/modules";
    /** The parent of every run's host-side directory. */
    public static final String HOST_WORK_ROOT = "/var/tmp/kproxy-uml";

    private Uml() {
    }

    /** The UML kernel's version (its module directory's name), if the package is installed. */
    public static Optional<String> moduleVersion() {
        Path dir = Path.of(MODULES);
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Boots a guest, loads {@code options.modules()}, runs {@code command} (as root, in the
     * guest's own network namespace, with loopback up) and powers the guest off. Call
     * {@link UmlGate#require} first.
     */
    public static UmlResult run(UmlOptions options, List<String> command) {
        String version = moduleVersion().orElseThrow(() -> new IllegalStateException("no UML kernel modules under " + MODULES));
        Path dir = createRunDir();
        try {
            Path init = dir.resolve("init.sh");
            Files.writeString(init, UmlInit.script(dir.toString(), version, options, command));
            Files.setPosixFilePermissions(init, PosixFilePermissions.fromString("rwxr-xr-x"));
            return boot(options, dir, init);
        } catch (IOException e) {
            throw new IllegalStateException("UML run in " + dir + ": " + e.getMessage(), e);
        } finally {
            if (!"1".equals(System.getenv("KPROXY_UML_KEEP"))) {
                deleteTree(dir);
            }
        }
    }

    private static UmlResult boot(UmlOptions options, Path dir, Path init) throws IOException {
        // uml_dir: the kernel's pid and management-console files go to the run directory (deleted
        // with it) instead of ~/.uml, where a killed guest would leave them behind.
        List<String> argv = List.of(KERNEL, "mem=" + options.memoryMegabytes() + "M", "quiet", "root=/dev/root", "rootfstype=hostfs",
                "rootflags=/", "ro", "init=" + init, "con0=fd:0,fd:1", "con=null", "uml_dir=" + dir);
        long start = System.nanoTime();
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        ConsoleReader console = new ConsoleReader(p);
        console.start();
        boolean exited;
        try {
            exited = p.waitFor(options.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exited = false;
        }
        if (!exited) {
            kill(p);
        }
        console.finish();
        Path exitFile = dir.resolve("exit");
        Path outputFile = dir.resolve("output");
        int exit = -1;
        if (Files.exists(exitFile)) {
            exit = Integer.parseInt(Files.readString(exitFile).strip());
        }
        String output = Files.exists(outputFile) ? Files.readString(outputFile) : "";
        long booted = console.markNanos("command-start");
        long ended = console.markNanos("command-end");
        Duration boot = Duration.ofNanos(booted > 0 ? booted - start : 0);
        Duration ran = Duration.ofNanos(booted > 0 && ended > 0 ? ended - booted : 0);
        return new UmlResult(exit, output, console.text(), boot, ran, !exited);
    }

    /** Kills the UML kernel process's helpers (its guest processes run as host children) and then the kernel, each by id. */
    private static void kill(Process p) {
        List<ProcessHandle> helpers = p.descendants().toList();
        helpers.forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        try {
            p.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Path createRunDir() {
        try {
            Path root = Files.createDirectories(Path.of(HOST_WORK_ROOT));
            return Files.createTempDirectory(root, "run-");
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a run directory under " + HOST_WORK_ROOT + ": " + e.getMessage(), e);
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // Left behind under /var/tmp/kproxy-uml; the next run does not depend on it.
        }
    }

    /** Reads the console as it is written, noting when each of the runner's marks appeared (host time). */
    private static final class ConsoleReader extends Thread {
        private final Process process;
        private final StringBuilder text = new StringBuilder();
        private final Map<String, Long> marks = new ConcurrentHashMap<>();

        ConsoleReader(Process process) {
            super("uml-console-" + process.pid());
            this.process = process;
            setDaemon(true);
        }

        @Override
        public void run() {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    String clean = line.replace("\r", "");
                    if (clean.startsWith(UmlInit.MARK + " ")) {
                        String[] w = clean.split(" ");
                        if (w.length >= 2) {
                            marks.putIfAbsent(w[1], System.nanoTime());
                        }
                    }
                    synchronized (text) {
                        text.append(clean).append('\n');
                    }
                }
            } catch (IOException e) {
                // The stream closes when UML exits or is killed.
            }
        }

        void finish() {
            try {
                join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        long markNanos(String mark) {
            return marks.getOrDefault(mark, 0L);
        }

        String text() {
            synchronized (text) {
                return text.toString();
            }
        }
    }

    /**
     * A command that runs {@code mainClass} with this JVM's JDK and class path inside the guest:
     * test classes, module jars from the local repository (all visible through hostfs), with
     * native access granted and the guest's {@code /tmp} as the temporary directory. Surefire's
     * manifest-only booter jar is replaced by the entries its manifest names, and entries under
     * the host's {@code /tmp} are named where the guest sees them ({@link UmlClassPath}).
     */
    public static List<String> java(String mainClass, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java"));
        cmd.addAll(List.of("-XX:-UsePerfData", "-XX:+UseSerialGC", "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow", "-Djava.io.tmpdir=/tmp", "-cp", String.join(":", UmlClassPath.current()), mainClass));
        cmd.addAll(List.of(args));
        return cmd;
    }
}
