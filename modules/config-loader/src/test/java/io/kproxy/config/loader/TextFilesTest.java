package io.kproxy.config.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.kproxy.config.ConfigException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18, defect 5: {@code /dev/zero} as {@code --config} died with OutOfMemoryError, a FIFO
 * hung. Only regular files are opened (links followed), and at most the limit plus one byte is read.
 */
class TextFilesTest {

    private static final Duration QUICK = Duration.ofSeconds(5);

    @Test
    void aFifoIsRefusedWithoutOpeningIt(@TempDir Path dir) throws Exception {
        Path fifo = mkfifo(dir.resolve("config.yaml"));
        assertTimeoutPreemptively(QUICK, () -> assertThatThrownBy(() -> TextFiles.read(fifo, 1024))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(fifo + ": ")
                .hasMessageContaining("not a regular file (a FIFO)"));
    }

    @Test
    void aLinkToAFifoIsRefusedAndALinkToAFileIsRead(@TempDir Path dir) throws Exception {
        Path fifo = mkfifo(dir.resolve("fifo"));
        Path toFifo = Files.createSymbolicLink(dir.resolve("to-fifo.yaml"), fifo);
        assertTimeoutPreemptively(QUICK, () -> assertThatThrownBy(() -> TextFiles.read(toFifo, 1024))
                .isInstanceOf(ConfigException.class).hasMessageContaining("not a regular file (a FIFO)"));
        // As kubelet mounts a ConfigMap: config.yaml -> ..data/config.yaml -> ..2026_11_26/config.yaml.
        Path real = Files.createDirectories(dir.resolve("..2026_11_26")).resolve("config.yaml");
        Files.writeString(real, "kind: X\n");
        Files.createSymbolicLink(dir.resolve("..data"), dir.resolve("..2026_11_26"));
        Path mounted = Files.createSymbolicLink(dir.resolve("config.yaml"), dir.resolve("..data/config.yaml"));
        assertThat(TextFiles.read(mounted, 1024)).isEqualTo("kind: X\n");
    }

    @Test
    void devicesDirectoriesAndMissingFilesAreRefused(@TempDir Path dir) {
        assertTimeoutPreemptively(QUICK, () -> assertThatThrownBy(() -> TextFiles.read(Path.of("/dev/zero"), 1 << 20))
                .isInstanceOf(ConfigException.class).hasMessageContaining("not a regular file (a character device)"));
        assertThatThrownBy(() -> TextFiles.read(dir, 1024)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("not a regular file (a directory)");
        assertThatThrownBy(() -> TextFiles.read(dir.resolve("absent.yaml"), 1024)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("no such file");
    }

    @Test
    void aFileOverTheLimitIsRefusedWithItsSizeAndTheLimit(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("big.yaml"), "a".repeat(1025));
        assertThatThrownBy(() -> TextFiles.read(file, 1024)).isInstanceOf(ConfigException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("the file is 1025 bytes, larger than the limit of 1024 bytes");
        Path exact = Files.writeString(dir.resolve("exact.yaml"), "a".repeat(1024));
        assertThat(TextFiles.read(exact, 1024)).hasSize(1024);
    }

    @Test
    void aFileThatReportsNoSizeIsStillReadOnlyUpToTheLimit() {
        // /proc files report size 0 and are generated as they are read.
        assertThatThrownBy(() -> TextFiles.read(Path.of("/proc/self/maps"), 16)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("larger than the limit of 16 bytes");
    }

    @Test
    void textThatIsNotUtf8IsRefused(@TempDir Path dir) throws Exception {
        Path file = Files.write(dir.resolve("latin1.yaml"), "caf\u00e9: 1".getBytes(StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> TextFiles.read(file, 1024)).isInstanceOf(ConfigException.class).hasMessageContaining("not UTF-8 text");
    }

    @Test
    void theKubeconfigCheckRefusesWithoutReading(@TempDir Path dir) throws Exception {
        Path fifo = mkfifo(dir.resolve("kubeconfig"));
        assertTimeoutPreemptively(QUICK, () -> assertThatThrownBy(() -> TextFiles.requireRegularFile(fifo, 1024))
                .isInstanceOf(ConfigException.class).hasMessageContaining("not a regular file (a FIFO)"));
        Path big = Files.writeString(dir.resolve("big"), "a".repeat(2000));
        assertThatThrownBy(() -> TextFiles.requireRegularFile(big, 1024)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("the file is 2000 bytes, larger than the limit of 1024 bytes");
    }

    static Path mkfifo(Path path) throws Exception {
        Process p = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
        assertThat(p.waitFor()).isZero();
        return path;
    }
}
