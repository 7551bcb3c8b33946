package io.kproxy.config;

import java.io.StringReader;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.reader.ReaderException;
import org.yaml.snakeyaml.reader.StreamReader;

/**
 * SnakeYAML's character source over a text already in memory, in linear time.
 *
 * <p>Why: SnakeYAML's own {@link StreamReader} refills its window 1,024 characters at a time and
 * copies every character not yet consumed into a new {@code int[]} at each refill. The scanner
 * peeks over a whole run of characters (a plain scalar up to the next blank, a quoted scalar up
 * to the next quote or escape, a comment to the end of its line) before consuming it, so a run
 * of {@code n} characters costs {@code n²/256} bytes of copying: a 2 MiB scalar allocated about
 * 16 GB (3 GB of heap at once, 2 s), a 10 MB one ran for minutes. Here the whole text is decoded
 * to code points once and every operation is O(1) or O(length of the result).
 *
 * <p>Every public method of {@link StreamReader} is overridden with the same contract (line,
 * column and index counting, the byte order mark not counted as a column, {@code \0} past the
 * end, "special characters are not allowed" for what YAML 1.1 forbids), so the superclass's own
 * buffer stays empty and unused. Not thread-safe (one parser, one thread).
 */
final class CodePointReader extends StreamReader {

    private static final String NAME = "'reader'";

    private final int[] codePoints;
    /** Index of the first code point YAML does not allow ({@link StreamReader#isPrintable(int)}), or {@code codePoints.length}. */
    private final int firstForbidden;
    private int pointer;
    private int index;
    private int documentIndex;
    private int line;
    private int column;

    CodePointReader(String text) {
        super(new StringReader(""));
        this.codePoints = text.codePoints().toArray();
        int bad = 0;
        while (bad < codePoints.length && isPrintable(codePoints[bad])) {
            bad++;
        }
        this.firstForbidden = bad;
    }

    /**
     * {@code true} when {@code count} code points from the pointer exist. A text holding a
     * character YAML forbids is refused at the first access, as SnakeYAML refuses it when it
     * loads the chunk holding it (the first chunk for any text under 1 KiB).
     */
    private boolean available(int count) {
        long end = (long) pointer + count;
        if (firstForbidden < codePoints.length) {
            throw new ReaderException(NAME, firstForbidden, codePoints[firstForbidden], "special characters are not allowed");
        }
        return end < codePoints.length;
    }

    @Override
    public Mark getMark() {
        return new Mark(NAME, index, line, column, codePoints, pointer);
    }

    @Override
    public void forward() {
        forward(1);
    }

    @Override
    public void forward(int length) {
        for (int i = 0; i < length && available(0); i++) {
            int c = codePoints[pointer++];
            index++;
            documentIndex++;
            // As SnakeYAML: a CR counts as a line break unless an LF follows (or it is the last character).
            if (c == '\n' || c == 0x85 || c == 0x2028 || c == 0x2029 || (c == '\r' && available(0) && codePoints[pointer] != '\n')) {
                line++;
                column = 0;
            } else if (c != 0xFEFF) {
                column++;
            }
        }
    }

    @Override
    public int peek() {
        return available(0) ? codePoints[pointer] : '\0';
    }

    @Override
    public int peek(int i) {
        return available(i) ? codePoints[pointer + i] : '\0';
    }

    @Override
    public String prefix(int length) {
        if (length == 0) {
            return "";
        }
        available(length);
        return new String(codePoints, pointer, Math.min(length, codePoints.length - pointer));
    }

    @Override
    public String prefixForward(int length) {
        String prefix = prefix(length);
        pointer += length;
        index += length;
        documentIndex += length;
        column += length;
        return prefix;
    }

    @Override
    public int getColumn() {
        return column;
    }

    @Override
    public int getDocumentIndex() {
        return documentIndex;
    }

    @Override
    public void resetDocumentIndex() {
        documentIndex = 0;
    }

    @Override
    public int getIndex() {
        return index;
    }

    @Override
    public int getLine() {
        return line;
    }
}
