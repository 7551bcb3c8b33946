package io.kproxy.config.loader;

import java.io.StringReader;
import java.util.Arrays;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.reader.ReaderException;
import org.yaml.snakeyaml.reader.StreamReader;

/**
 * SnakeYAML's character source over a text already in memory, in linear time and with a window
 * as small as SnakeYAML's own.
 *
 * <p>Why: SnakeYAML's own {@link StreamReader} refills its window 1,024 characters at a time and
 * copies every character not yet consumed into a new {@code int[]} at each refill. The scanner
 * peeks over a whole run of characters (a plain scalar up to the next blank, a quoted scalar up
 * to the next quote or escape, a comment to the end of its line) before consuming it, so a run
 * of {@code n} characters costs {@code n²/256} bytes of copying: a 2 MiB scalar allocated about
 * 16 GB (3 GB of heap at once, 2 s), a 10 MB one ran for minutes. Here a refill reads at least
 * as many new code points as it copies (the window grows geometrically while a run is unread),
 * so the copying adds up to at most the text's length; the window holds the unread run and a
 * little more, never the whole text (the marks of every token refer to it, as SnakeYAML's do).
 *
 * <p>Every public method of {@link StreamReader} is overridden with the same contract (line,
 * column and index counting, the byte order mark not counted as a column, {@code \0} past the
 * end, "special characters are not allowed" for what YAML 1.1 forbids), so the superclass's own
 * buffer stays empty and unused. Not thread-safe (one parser, one thread).
 */
final class CodePointReader extends StreamReader {

    private static final String NAME = "'reader'";
    /** SnakeYAML's refill size. */
    private static final int CHUNK = 1024;

    private final String text;
    /** Char index in {@link #text} of the first code point YAML does not allow ({@link StreamReader#isPrintable(int)}), or -1. */
    private final int firstForbidden;
    /** Char index in {@link #text} of the next code point to load into the window. */
    private int loaded;
    private int[] window = new int[0];
    private int dataLength;
    private int pointer;
    private int index;
    private int documentIndex;
    private int line;
    private int column;

    CodePointReader(String text) {
        super(new StringReader(""));
        this.text = text;
        int bad = -1;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            if (!isPrintable(c)) {
                bad = i;
                break;
            }
            i += Character.charCount(c);
        }
        this.firstForbidden = bad;
    }

    /**
     * {@code true} when the code point {@code count} past the pointer exists. A text holding a
     * character YAML forbids is refused at the first access, as SnakeYAML refuses it when it
     * loads the chunk holding it (the first chunk for any text under 1 KiB).
     */
    private boolean available(int count) {
        if (firstForbidden >= 0) {
            int c = text.codePointAt(firstForbidden);
            throw new ReaderException(NAME, text.codePointCount(0, firstForbidden), c, "special characters are not allowed");
        }
        while (pointer + count >= dataLength && loaded < text.length()) {
            refill(pointer + count + 1 - dataLength);
        }
        return pointer + count < dataLength;
    }

    /** Drops the consumed code points and loads at least {@code needed} more, and at least as many as are kept. */
    private void refill(int needed) {
        int kept = dataLength - pointer;
        int wanted = Math.max(Math.max(needed, CHUNK), kept);
        int[] next = new int[kept + wanted];
        System.arraycopy(window, pointer, next, 0, kept);
        int n = kept;
        while (n < next.length && loaded < text.length()) {
            int c = text.codePointAt(loaded);
            loaded += Character.charCount(c);
            next[n++] = c;
        }
        window = n == next.length ? next : Arrays.copyOf(next, n);
        dataLength = n;
        pointer = 0;
    }

    @Override
    public Mark getMark() {
        return new Mark(NAME, index, line, column, window, pointer);
    }

    @Override
    public void forward() {
        forward(1);
    }

    @Override
    public void forward(int length) {
        for (int i = 0; i < length && available(0); i++) {
            int c = window[pointer++];
            index++;
            documentIndex++;
            // As SnakeYAML: a CR counts as a line break unless an LF follows (or it is the last character).
            if (c == '\n' || c == 0x85 || c == 0x2028 || c == 0x2029 || (c == '\r' && available(0) && window[pointer] != '\n')) {
                line++;
                column = 0;
            } else if (c != 0xFEFF) {
                column++;
            }
        }
    }

    @Override
    public int peek() {
        return available(0) ? window[pointer] : '\0';
    }

    @Override
    public int peek(int i) {
        return available(i) ? window[pointer + i] : '\0';
    }

    @Override
    public String prefix(int length) {
        if (length == 0) {
            return "";
        }
        available(length - 1);
        return new String(window, pointer, Math.min(length, dataLength - pointer));
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
