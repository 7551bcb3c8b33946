package io.kproxy.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.opentest4j.AssertionFailedError;

/**
 * Compares text with a golden file under {@code src/test/resources/golden/}, after normalising
 * both (line endings, trailing blanks, final newline). On a mismatch the failure message holds a
 * unified-style diff. Run with {@code -Dgolden.update=true} to (re)write golden files; review the
 * change before committing it.
 */
public final class Golden {

    private static final Path ROOT = Path.of("src", "test", "resources", "golden");

    private Golden() {
    }

    /** Asserts {@code actual} equals {@code golden/<name>}. */
    public static void assertMatches(String name, String actual) {
        assertMatches(name, actual, UnaryOperator.identity());
    }

    /** Asserts equality after applying {@code normaliser} to both sides (e.g. masking hashes). */
    public static void assertMatches(String name, String actual, UnaryOperator<String> normaliser) {
        assertMatches(ROOT, name, actual, normaliser, Boolean.getBoolean("golden.update"));
    }

    /** The same with the root and the update switch given: a seam for Golden's own tests. */
    static void assertMatches(Path root, String name, String actual, UnaryOperator<String> normaliser, boolean update) {
        Path file = root.resolve(name);
        String got = normaliser.apply(normalise(actual));
        if (update) {
            write(file, normalise(actual));
            return;
        }
        if (!Files.exists(file)) {
            throw new AssertionFailedError("golden file " + file + " is missing; run with -Dgolden.update=true to create it. Actual:\n" + got);
        }
        String want = normaliser.apply(normalise(read(file)));
        if (!want.equals(got)) {
            throw new AssertionFailedError("output differs from golden file " + file + " (- golden, + actual):\n" + diff(want, got), want, got);
        }
    }

    /** Reads a golden file, normalised. */
    public static String read(String name) {
        return normalise(read(ROOT.resolve(name)));
    }

    static String normalise(String s) {
        String[] lines = s.replace("\r\n", "\n").split("\n", -1);
        StringBuilder b = new StringBuilder();
        for (String line : lines) {
            b.append(line.stripTrailing()).append('\n');
        }
        String out = b.toString();
        while (out.endsWith("\n\n")) {
            out = out.substring(0, out.length() - 1);
        }
        return out.equals("\n") ? "" : out;
    }

    /** A line diff (longest common subsequence), with three lines of context around changes. */
    static String diff(String a, String b) {
        String[] x = a.split("\n", -1);
        String[] y = b.split("\n", -1);
        if ((long) x.length * y.length > 4_000_000L) {
            return firstDifference(x, y);
        }
        int[][] lcs = new int[x.length + 1][y.length + 1];
        for (int i = x.length - 1; i >= 0; i--) {
            for (int j = y.length - 1; j >= 0; j--) {
                lcs[i][j] = x[i].equals(y[j]) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        List<String> out = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < x.length || j < y.length) {
            if (i < x.length && j < y.length && x[i].equals(y[j])) {
                out.add("  " + x[i]);
                i++;
                j++;
            } else if (j < y.length && (i == x.length || lcs[i][j + 1] >= lcs[i + 1][j])) {
                out.add("+ " + y[j++]);
            } else {
                out.add("- " + x[i++]);
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < out.size(); k++) {
            boolean near = false;
            for (int d = Math.max(0, k - 3); d <= Math.min(out.size() - 1, k + 3); d++) {
                near |= !out.get(d).startsWith("  ");
            }
            if (near) {
                sb.append(out.get(k)).append('\n');
            } else if (sb.length() > 0 && !sb.toString().endsWith("...\n")) {
                sb.append("...\n");
            }
        }
        return sb.toString();
    }

    /** For huge files: the first differing line and a little context, without an O(n*m) table. */
    private static String firstDifference(String[] x, String[] y) {
        int k = 0;
        while (k < x.length && k < y.length && x[k].equals(y[k])) {
            k++;
        }
        StringBuilder sb = new StringBuilder("first difference at line " + (k + 1) + ":\n");
        for (int d = k; d < Math.min(k + 5, x.length); d++) {
            sb.append("- ").append(x[d]).append('\n');
        }
        for (int d = k; d < Math.min(k + 5, y.length); d++) {
            sb.append("+ ").append(y[d]).append('\n');
        }
        return sb.toString();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, String content) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
