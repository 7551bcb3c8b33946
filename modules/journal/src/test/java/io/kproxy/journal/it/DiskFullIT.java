package io.kproxy.journal.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real ENOSPC: the writer runs in a child JVM inside a private mount namespace
 * ({@code unshare -m --propagation private}) on a 448 KiB tmpfs that only that namespace sees, so
 * the host's mounts are never touched. Needs root; skipped with a reason otherwise, or failed when
 * {@code KPROXY_REQUIRE_KERNEL=1}.
 */
class DiskFullIT {

    @TempDir
    Path tmp;

    @Test
    void aFullDiskGivesAClearRetryableErrorAndCorruptsNothing() throws Exception {
        requireMountNamespaces();
        Path mount = Files.createDirectory(tmp.resolve("tmpfs"));
        List<String> cmd = new ArrayList<>(List.of("unshare", "-m", "--propagation", "private", "sh", "-c",
                "mount -t tmpfs -o size=448k,mode=0700 kproxy-enospc \"$0\" && exec \"$@\"", mount.toString()));
        cmd.addAll(ChildJvm.javaCommand(FullDiskChild.class, mount.toString()));
        Path err = tmp.resolve("child.err");
        List<String> out;
        try (ChildJvm child = ChildJvm.start(cmd, err)) {
            out = child.rest(120);
            int rc = child.waitFor(30);
            assertThat(rc).as("child exit; stderr:%n%s", Files.readString(err)).isZero();
        }
        System.out.println("full-disk child said:\n  " + String.join("\n  ", out));
        assertThat(out).as("child output").contains("DONE");
        String full = line(out, "FULL ");
        assertThat(full).contains("kind=FULL", "retryable=true", "no space left on device", "was not kept");
        int acked = Integer.parseInt(full.replaceAll(".* after=(\\d+) .*", "$1"));
        assertThat(acked).isGreaterThan(100);
        assertThat(line(out, "FULL_AGAIN")).contains("kind=FULL");
        assertThat(line(out, "SNAPSHOT_FULL")).contains("kind=FULL");
        assertThat(line(out, "SNAPSHOT_FILES")).isEqualTo("SNAPSHOT_FILES 0"); // no partial snapshot left behind
        assertThat(line(out, "READ")).isEqualTo("READ " + acked);
        assertThat(line(out, "REOPENED")).isEqualTo("REOPENED next=" + acked + " problems=0");
        assertThat(line(out, "ACKED_INTACT")).isEqualTo("ACKED_INTACT " + acked + "/" + acked);
        assertThat(line(out, "VERIFY")).isEqualTo("VERIFY []");
        assertThat(line(out, "RESUMED")).isEqualTo("RESUMED next=" + (acked + 50));
        assertThat(Files.list(mount).count()).as("the tmpfs was private to the child's namespace").isZero();
    }

    private static String line(List<String> out, String prefix) {
        return out.stream().filter(l -> l.startsWith(prefix)).findFirst().orElseGet(() -> fail("no line " + prefix + " in " + out));
    }

    /** Root and a working {@code unshare -m}, or a skip with the reason (a failure under KPROXY_REQUIRE_KERNEL=1). */
    private static void requireMountNamespaces() throws InterruptedException {
        String why = null;
        try {
            Process id = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
            String uid = new String(id.getInputStream().readAllBytes()).trim();
            id.waitFor(10, TimeUnit.SECONDS);
            if (!uid.equals("0")) {
                why = "needs root to mount a tmpfs in a private mount namespace (uid " + uid + ")";
            } else {
                Process probe = new ProcessBuilder("unshare", "-m", "--propagation", "private", "true").redirectErrorStream(true).start();
                String msg = new String(probe.getInputStream().readAllBytes()).trim();
                if (!probe.waitFor(10, TimeUnit.SECONDS) || probe.exitValue() != 0) {
                    why = "unshare -m does not work here: " + msg;
                }
            }
        } catch (IOException e) {
            why = "cannot run id/unshare: " + e.getMessage();
        }
        if (why != null) {
            if ("1".equals(System.getenv("KPROXY_REQUIRE_KERNEL"))) {
                fail("KPROXY_REQUIRE_KERNEL=1 but the ENOSPC test cannot run: " + why);
            }
            Assumptions.abort("ENOSPC test skipped: " + why);
        }
    }
}
