package io.kproxy.testkit.uml;

import io.kproxy.testkit.KernelTests;
import java.nio.file.Files;
import java.nio.file.Path;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * The gate in front of every test that boots User-Mode Linux: the {@code linux.uml} kernel and
 * its modules (Debian package {@code user-mode-linux}), and the tools the guest runs. A missing
 * piece skips the test with a message, or fails it when {@code KPROXY_REQUIRE_KERNEL=1} (as
 * {@link KernelTests#require} does), so that CI never passes by skipping.
 */
public final class UmlGate {

    private UmlGate() {
    }

    /** Requires the UML kernel, its modules and every tool in {@code tools} (looked up on the host: the guest sees the host's files). */
    public static void require(String... tools) {
        String missing = missing(tools);
        if (missing == null) {
            return;
        }
        String why = "UML test needs " + missing + " (apt-get install -y user-mode-linux ipvsadm kmod busybox-static)";
        if (KernelTests.required()) {
            throw new AssertionFailedError(why + " (" + KernelTests.REQUIRE_ENV + "=1: a missing capability is a failure)");
        }
        throw new TestAbortedException(why + "; skipped (set " + KernelTests.REQUIRE_ENV + "=1 to make this a failure)");
    }

    /** What is missing, or null when the UML kernel, its modules and the tools are all there. */
    static String missing(String... tools) {
        if (KernelTests.which(Uml.KERNEL) == null) {
            return "the '" + Uml.KERNEL + "' kernel";
        }
        if (Uml.moduleVersion().isEmpty()) {
            return "the UML kernel modules under " + Uml.MODULES;
        }
        for (String t : tools) {
            if (KernelTests.which(t) == null) {
                return "the '" + t + "' tool";
            }
        }
        Path root = Path.of(Uml.HOST_WORK_ROOT);
        if (!Files.isWritable(Files.isDirectory(root) ? root : root.getParent())) {
            return "a writable " + Uml.HOST_WORK_ROOT;
        }
        return null;
    }
}
