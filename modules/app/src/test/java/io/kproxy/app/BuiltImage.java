package io.kproxy.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Test-only: the container image as {@code deploy/build-image.sh} builds it, under a tag of its
 * own, with a working container of it ({@code buildah from}) mounted on the host
 * ({@code buildah mount}) so that a test can read its files and enter it with {@code chroot}.
 * {@link #close()} unmounts and removes the container and the image; the cached Debian base
 * (tarball and imported image) stays for the next build. Not thread-safe.
 */
final class BuiltImage implements AutoCloseable {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern REPORT = Pattern.compile("image=(\\S+) size_bytes=(\\d+) size_mb=\\d+ seconds=(\\d+).*");

    /** What the build script printed: the image, its size and how long the build took. */
    record Report(String tag, long sizeBytes, long seconds) {
    }

    final Report report;
    final String container;
    final Path root;

    private BuiltImage(Report report, String container, Path root) {
        this.report = report;
        this.container = container;
        this.root = root;
    }

    /**
     * Builds the image from what Maven has just built ({@code --skip-maven}), saves it to
     * {@code archive} ({@code --save}) and mounts a container of it; build output goes to
     * {@code target/image-build.log}.
     */
    static BuiltImage build(Path archive) throws IOException {
        String suffix = Integer.toHexString(RANDOM.nextInt() & 0xFFFFFF);
        String tag = "localhost/kproxy-imageit:" + suffix;
        String out = run(Duration.ofMinutes(15), Path.of("target", "image-build.log"), AgentProcess.root().resolve("deploy/build-image.sh")
                .toString(), "--skip-maven", "--tag", tag, "--save", archive.toString());
        Matcher m = REPORT.matcher(out.strip().lines().reduce((a, b) -> b).orElse(""));
        if (!m.matches()) {
            removeImage(tag);
            throw new IllegalStateException("build-image.sh printed no report line: " + out);
        }
        Report report = new Report(m.group(1), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)));
        String container = null;
        try {
            container = run(Duration.ofMinutes(1), null, "buildah", "from", "--pull-never", "--quiet", "--name", "kp-imageit-" + suffix, tag)
                    .strip();
            Path root = Path.of(run(Duration.ofMinutes(1), null, "buildah", "mount", container).strip());
            return new BuiltImage(report, container, root);
        } catch (RuntimeException e) {
            if (container != null) {
                run(Duration.ofMinutes(1), null, "buildah", "rm", container);
            }
            removeImage(tag);
            throw e;
        }
    }

    /** A field of the image's configuration as JSON, e.g. {@code .Config.Entrypoint}. */
    String config(String field) {
        return run(Duration.ofMinutes(1), null, "podman", "image", "inspect", "--format", "{{json " + field + "}}", report.tag()).strip();
    }

    @Override
    public void close() {
        try {
            run(Duration.ofMinutes(1), null, "buildah", "umount", container);
            run(Duration.ofMinutes(1), null, "buildah", "rm", container);
        } finally {
            removeImage(report.tag());
        }
    }

    private static void removeImage(String tag) {
        run(Duration.ofMinutes(1), null, "podman", "rmi", "--force", tag);
    }

    /**
     * Runs a command on the host and returns its standard output; standard error goes to
     * {@code errLog} (or into the failure message). Throws when it exits non-zero or outlives
     * {@code timeout}.
     */
    static String run(Duration timeout, Path errLog, String... command) {
        try {
            Path out = Files.createTempFile("kp-image-", ".out");
            Path err = errLog != null ? errLog.toAbsolutePath() : Files.createTempFile("kp-image-", ".err");
            Files.createDirectories(err.getParent());
            try {
                Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
                if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IllegalStateException("'" + String.join(" ", command) + "' did not finish within " + timeout);
                }
                if (p.exitValue() != 0) {
                    throw new IllegalStateException("'" + String.join(" ", command) + "' exited " + p.exitValue() + ": "
                            + (errLog != null ? "see " + err : Files.readString(err).strip()));
                }
                return Files.readString(out);
            } finally {
                Files.deleteIfExists(out);
                if (errLog == null) {
                    Files.deleteIfExists(err);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run '" + String.join(" ", command) + "': " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running '" + String.join(" ", command) + "'", e);
        }
    }

    /** The command that enters the mounted image inside {@code netnsPrefix} (test resource image/enter-image.sh). */
    List<String> enter(List<String> netnsPrefix, Path journal, Path objects, List<String> command) {
        // Never the machine's own network namespace: only one a test created (NetNs.prefix()).
        if (netnsPrefix.size() != 4 || !netnsPrefix.subList(0, 3).equals(List.of("ip", "netns", "exec")) || !netnsPrefix.get(3).startsWith("kp-")) {
            throw new IllegalArgumentException("the image is entered only inside a test's network namespace, not with " + netnsPrefix);
        }
        List<String> cmd = new ArrayList<>(netnsPrefix);
        cmd.addAll(List.of("unshare", "--mount", "sh", Path.of("src/test/resources/image/enter-image.sh").toAbsolutePath().toString(),
                root.toString(), journal.toString(), objects == null ? "" : objects.toString()));
        cmd.addAll(command);
        return cmd;
    }
}
