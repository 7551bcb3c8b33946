package io.kproxy.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * The gate in front of every test that needs the real kernel: root, and the tools it names.
 * Where something is missing the test is skipped with a message saying what and why, unless the
 * environment variable {@code KPROXY_REQUIRE_KERNEL=1} is set (CI sets it in {@code .ci/run}):
 * then a missing capability fails the test, so that CI can never pass by skipping.
 */
public final class KernelTests {

    /** The switch that turns kernel-test skips into failures. */
    public static final String REQUIRE_ENV = "KPROXY_REQUIRE_KERNEL";

    private KernelTests() {
    }

    /**
     * What the gate looks at: the environment, whether we are root, and where a tool is. The
     * package-private seam lets the gate's own tests inject each one.
     */
    record Probe(Function<String, String> env, BooleanSupplier root, Function<String, String> which) {
        static final Probe SYSTEM = new Probe(System::getenv, KernelTests::isRoot, KernelTests::which);
    }

    /** True when a missing capability must fail rather than skip. */
    public static boolean required() {
        return required(Probe.SYSTEM);
    }

    static boolean required(Probe probe) {
        String v = probe.env().apply(REQUIRE_ENV);
        return "1".equals(v) || "true".equalsIgnoreCase(v);
    }

    /** Requires root and every tool in {@code tools} (looked up on PATH and in /usr/sbin, /sbin). */
    public static void require(String... tools) {
        require(Probe.SYSTEM, tools);
    }

    static void require(Probe probe, String... tools) {
        List<String> missing = new ArrayList<>();
        if (!probe.root().getAsBoolean()) {
            missing.add("root (uid 0)");
        }
        for (String tool : tools) {
            if (probe.which().apply(tool) == null) {
                missing.add("the '" + tool + "' tool");
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        String why = "kernel test needs " + String.join(", ", missing) + " to run inside a private network namespace";
        if (required(probe)) {
            throw new AssertionFailedError(why + " (" + REQUIRE_ENV + "=1: a missing capability is a failure)");
        }
        throw new TestAbortedException(why + "; skipped (set " + REQUIRE_ENV + "=1 to make this a failure)");
    }

    /** True when the JVM runs as uid 0. */
    public static boolean isRoot() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[1].equals("0");
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    /** The absolute path of {@code tool}, or null. */
    public static String which(String tool) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        for (String d : dirs) {
            if (d.isEmpty()) {
                continue;
            }
            Path p = Path.of(d, tool);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }
}
