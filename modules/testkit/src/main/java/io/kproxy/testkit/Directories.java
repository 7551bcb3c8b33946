package io.kproxy.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/** Directory helpers for tests: a journal (segments, indexes, snapshots) copied before a test damages or extends it. */
public final class Directories {

    private Directories() {
    }

    /**
     * Copies every file of {@code from} and its subdirectories to {@code to} (created as needed),
     * replacing what is there; returns {@code to}.
     */
    public static Path copy(Path from, Path to) {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.sorted().toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
            return to;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
