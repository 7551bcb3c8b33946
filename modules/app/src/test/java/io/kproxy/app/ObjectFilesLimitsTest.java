package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18, defects 5 and 6 for {@code render --objects}: a FIFO among the files or as the
 * directory, a string over the limit, and an alias are each reported, never hang or misread.
 */
class ObjectFilesLimitsTest {

    private static final String SERVICE = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: demo\n"
            + "spec:\n  clusterIP: 10.96.0.10\n  ports:\n  - port: 80\n    protocol: TCP\n";

    private static RenderCommandTest.Run render(Path dir) {
        return assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> RenderCommandTest.run("render", "--objects", dir.toString(), "--node", "node-a", "--mode", "nftables"));
    }

    @Test
    void aFifoAmongTheFilesIsReportedAndTheRestRender(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a.yaml"), SERVICE);
        assertThat(new ProcessBuilder("mkfifo", dir.resolve("b.yaml").toString()).inheritIO().start().waitFor()).isZero();
        RenderCommandTest.Run r = render(dir);
        assertThat(r.exit()).as(r.err()).isEqualTo(3);
        assertThat(r.out()).contains("10.96.0.10");
        assertThat(r.err()).contains("kproxy render: skipped b.yaml: not a regular file (a FIFO); kproxy reads only regular files");
    }

    @Test
    void aFifoAsTheDirectoryIsRefused(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("objects");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor()).isZero();
        RenderCommandTest.Run r = render(fifo);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("cannot read " + fifo + ": not a directory");
    }

    @Test
    void aStringOverTheLimitAndAnAliasAreReportedWithTheirFileAndLine(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a.yaml"), SERVICE);
        Files.writeString(dir.resolve("big.yaml"), SERVICE.replace("namespace: demo\n", "namespace: demo\n  annotations:\n    a: "
                + "x".repeat(3 << 20) + "\n").replace("web", "big").replace("10.96.0.10", "10.96.0.11"));
        Files.writeString(dir.resolve("alias.yaml"), SERVICE.replace("name: web", "name: &n web").replace("namespace: demo", "namespace: *n"));
        long start = System.nanoTime();
        RenderCommandTest.Run r = render(dir);
        assertThat(System.nanoTime() - start).isLessThan(10_000_000_000L);
        assertThat(r.exit()).as(r.err()).isEqualTo(3);
        assertThat(r.out()).contains("10.96.0.10").doesNotContain("10.96.0.11");
        assertThat(r.err()).contains("skipped alias.yaml: syntax error at line 5, column 14: YAML aliases (*n) are not supported")
                .contains("skipped big.yaml: syntax error at line 7, column 8: a string of " + (3 << 20) + " characters, more than the limit of 1048576");
    }
}
