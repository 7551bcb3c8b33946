package io.kproxy.events;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Where the corpus lives ({@code events/corpus/v1} at the repository root) and how its files are named. */
final class Corpus {

    static final Pattern BIN = Pattern.compile("(\\d{3})-([a-z-]+)\\.bin");

    private Corpus() {
    }

    /** {@code events/corpus/v1}, found from the module directory surefire runs in. */
    static Path v1() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("mvnw"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("repository root (with mvnw) not found above " + Path.of("").toAbsolutePath());
        }
        return dir.resolve("events").resolve("corpus").resolve("v1");
    }

    static List<Path> binFiles() {
        try (Stream<Path> s = Files.list(v1())) {
            return s.filter(p -> p.getFileName().toString().endsWith(".bin")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Matcher name(Path bin) {
        Matcher m = BIN.matcher(bin.getFileName().toString());
        if (!m.matches()) {
            throw new IllegalStateException("corpus file " + bin.getFileName() + " is not named NNN-<type>.bin");
        }
        return m;
    }

    /** The file-name spelling of an event type: {@code ENDPOINT_SLICE_OBSERVED} is {@code endpoint-slice-observed}. */
    static String fileType(EventType t) {
        return t.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    static Path jsonFor(Path bin) {
        String f = bin.getFileName().toString();
        return bin.resolveSibling(f.substring(0, f.length() - 4) + ".json");
    }

    /** Corpus records are decoded at the offset their file number names. */
    static long offsetOf(Path bin) {
        return Long.parseLong(name(bin).group(1));
    }
}
