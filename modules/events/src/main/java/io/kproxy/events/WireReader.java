package io.kproxy.events;

import io.kproxy.events.EventDecodeException.Reason;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Reads what {@link WireWriter} writes, checking every length and tag against the bytes that
 * remain, so that garbage ends in an {@link EventDecodeException} rather than a wrong value or
 * a huge allocation. Not thread-safe; one reader per record.
 */
final class WireReader {

    static final int MAX_DEPTH = 64;

    private final byte[] buf;
    private final int start;
    private final int end;
    private int pos;
    private RepeatTable keyTable;
    private String[] keys;
    private RepeatTable valueTable;
    private Json.Str[] values;

    WireReader(byte[] buf, int off, int len) {
        if (off < 0 || len < 0 || off + len > buf.length) {
            throw new IndexOutOfBoundsException("off=" + off + " len=" + len + " size=" + buf.length);
        }
        this.buf = buf;
        this.start = off;
        this.pos = off;
        this.end = off + len;
    }

    int position() {
        return pos - start;
    }

    int remaining() {
        return end - pos;
    }

    boolean atEnd() {
        return pos == end;
    }

    EventDecodeException error(Reason reason, String message) {
        return new EventDecodeException(reason, position(), message);
    }

    // The hot readers below are kept small, their failures in separate methods, so that the JIT
    // inlines them into the recursive JSON reader.

    int u8() {
        if (pos >= end) {
            throw truncated();
        }
        return buf[pos++] & 0xFF;
    }

    private EventDecodeException truncated() {
        return error(Reason.TRUNCATED, "expected a byte");
    }

    /**
     * An unsigned LEB128 varint of at most 10 bytes. Only the shortest form is accepted: a
     * padded one ({@code 0x80 0x00} for zero) would decode to the same value but re-encode to
     * other bytes, and every record has exactly one encoding.
     */
    long varint() {
        if (pos < end && buf[pos] >= 0) {
            return buf[pos++]; // one byte: most lengths, counts, references and tags
        }
        return longVarint();
    }

    private long longVarint() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = u8();
            if (shift == 63 && (b & 0xFE) != 0) {
                throw error(Reason.MALFORMED, "varint overflows 64 bits");
            }
            if (b == 0 && shift > 0) {
                throw error(Reason.MALFORMED, "varint padded with a zero byte (not the shortest form)");
            }
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw error(Reason.MALFORMED, "varint longer than 10 bytes");
    }

    long zigzag() {
        long v = varint();
        return (v >>> 1) ^ -(v & 1);
    }

    /**
     * A length or count prefix: a varint no larger than what the bytes left after it can hold,
     * each item taking at least {@code minBytesEach}. Checked before anything is allocated, so a
     * declared length never sizes an allocation beyond the input.
     */
    int count(int minBytesEach, String what) {
        long n = varint();
        int left = end - pos;
        if (n < 0 || n > left || n * minBytesEach > left) { // n <= left < 2^31: the product cannot overflow
            throw tooLarge(what, n, left);
        }
        return (int) n;
    }

    private EventDecodeException tooLarge(String what, long n, int left) {
        return error(Reason.MALFORMED, what + " " + Long.toUnsignedString(n) + " exceeds what the " + left + " bytes left can hold");
    }

    boolean bool() {
        int b = u8();
        if (b > 1) {
            throw error(Reason.MALFORMED, "boolean byte " + b);
        }
        return b == 1;
    }

    long fixed64() {
        if (end - pos < 8) {
            throw error(Reason.TRUNCATED, "expected 8 bytes");
        }
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (buf[pos++] & 0xFF);
        }
        return v;
    }

    String string() {
        int n = count(1, "string length");
        int from = pos;
        pos += n;
        return text(from, n);
    }

    /**
     * {@code buf[from, from+n)} as strict UTF-8. The JDK decodes ASCII on a vectorized fast path
     * but replaces malformed bytes with U+FFFD instead of failing; the result has exactly
     * {@code n} chars and no U+FFFD only when every byte was ASCII (valid non-ASCII sequences
     * are longer than the chars they encode, malformed bytes turn into U+FFFD). Anything else is
     * decoded again, strictly.
     */
    private String text(int from, int n) {
        String s = new String(buf, from, n, StandardCharsets.UTF_8);
        if (s.length() == n && s.indexOf('\uFFFD') < 0) {
            return s;
        }
        return utf8(from, n);
    }

    private String utf8(int from, int n) {
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            CharBuffer chars = d.decode(ByteBuffer.wrap(buf, from, n));
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw new EventDecodeException(Reason.MALFORMED, from - start, "invalid UTF-8 in a string", e);
        }
    }

    Json json() {
        return json(0);
    }

    private Json json(int depth) {
        if (depth > MAX_DEPTH) {
            throw error(Reason.MALFORMED, "JSON nested deeper than " + MAX_DEPTH);
        }
        int tag = u8();
        return switch (tag) {
            case WireWriter.J_NULL -> Json.Null.INSTANCE;
            case WireWriter.J_FALSE -> Json.Bool.FALSE;
            case WireWriter.J_TRUE -> Json.Bool.TRUE;
            case WireWriter.J_INT -> new Json.Int(zigzag());
            case WireWriter.J_DEC -> {
                double d = Double.longBitsToDouble(fixed64());
                if (!Double.isFinite(d)) {
                    throw error(Reason.MALFORMED, "non-finite JSON number");
                }
                yield new Json.Dec(d);
            }
            case WireWriter.J_STR -> stringValue();
            case WireWriter.J_STR_REF -> {
                long i = varint();
                if (i < 0 || valueTable == null || i >= valueTable.size()) {
                    throw error(Reason.MALFORMED, "string reference " + i + " out of range");
                }
                yield values[(int) i];
            }
            case WireWriter.J_ARR -> array(depth);
            case WireWriter.J_OBJ -> object(depth);
            default -> throw new EventDecodeException(Reason.MALFORMED, position() - 1, "unknown JSON tag " + tag);
        };
    }

    /**
     * Lists of up to two items are built by {@code List.of}, larger ones from one array that
     * {@code List.of} copies once; {@link Json.Arr} keeps either without another copy.
     */
    private Json array(int depth) {
        int n = count(1, "array size");
        return switch (n) {
            case 0 -> Json.Arr.EMPTY;
            case 1 -> new Json.Arr(List.of(json(depth + 1)));
            case 2 -> {
                Json first = json(depth + 1);
                yield new Json.Arr(List.of(first, json(depth + 1)));
            }
            default -> {
                Json[] items = new Json[n];
                for (int i = 0; i < n; i++) {
                    items[i] = json(depth + 1);
                }
                yield new Json.Arr(List.of(items));
            }
        };
    }

    /**
     * An object read into two fresh arrays that {@link Json.Obj#ofOwnedArrays} adopts. It also
     * refuses a key that occurs twice, and its exception is reported as malformed input.
     */
    private Json object(int depth) {
        int n = count(2, "object size");
        if (n == 0) {
            return Json.Obj.EMPTY;
        }
        String[] keys = new String[n];
        Json[] fields = new Json[n];
        for (int i = 0; i < n; i++) {
            keys[i] = key();
            fields[i] = json(depth + 1);
        }
        try {
            return Json.Obj.ofOwnedArrays(keys, fields);
        } catch (InvalidValueException e) {
            throw new EventDecodeException(Reason.MALFORMED, position(), "object: " + e.getMessage(), e);
        }
    }

    /** A string value; a short one joins the repeat table, and a second literal of it is refused (see {@link #key}). */
    private Json.Str stringValue() {
        int at = position();
        int n = count(1, "string length");
        int from = pos;
        pos += n;
        Json.Str node = new Json.Str(text(from, n));
        if (node.value().length() <= WireWriter.MAX_INTERNED) {
            enter(node, from, n, at);
        }
        return node;
    }

    private void enter(Json.Str node, int from, int n, int at) {
        if (valueTable == null) {
            // about one short string per 24 bytes in Kubernetes objects (measured on EndpointSlices)
            int expected = Math.min(256, (end - pos) / 24);
            valueTable = new RepeatTable(buf, expected);
            values = new Json.Str[Math.max(8, expected)];
        }
        if (!valueTable.add(from, n)) {
            throw new EventDecodeException(Reason.MALFORMED, at, "string \"" + node.value() + "\" written literally twice");
        }
        int i = valueTable.size() - 1;
        if (i == values.length) {
            values = Arrays.copyOf(values, i * 2);
        }
        values[i] = node; // a reference shares the node: it is immutable
    }

    /**
     * A key: {@code 0} then a literal that joins the table, or {@code index + 1} into the
     * dictionary followed by the table. A literal that already has a reference (a dictionary
     * key, or one earlier in this record) is refused: the writer never produces it, and
     * accepting it would give one record two encodings.
     */
    private String key() {
        int at = position();
        long ref = varint();
        int dict = KeyDictionary.size();
        if (ref == 0) {
            int n = count(1, "string length");
            int from = pos;
            pos += n;
            String k = text(from, n);
            if (KeyDictionary.indexOf(k) >= 0) {
                throw new EventDecodeException(Reason.MALFORMED, at, "dictionary key \"" + k + "\" written literally");
            }
            if (keyTable == null) {
                keyTable = new RepeatTable(buf, 8);
                keys = new String[16];
            }
            if (!keyTable.add(from, n)) {
                throw new EventDecodeException(Reason.MALFORMED, at, "key \"" + k + "\" written literally twice");
            }
            int i = keyTable.size() - 1;
            if (i == keys.length) {
                keys = Arrays.copyOf(keys, i * 2);
            }
            keys[i] = k;
            return k;
        }
        int literal = keyTable == null ? 0 : keyTable.size();
        if (ref < 0 || ref > dict + literal) {
            throw new EventDecodeException(Reason.MALFORMED, at, "key reference " + Long.toUnsignedString(ref) + " out of range");
        }
        int i = (int) ref - 1;
        return i < dict ? KeyDictionary.get(i) : keys[i - dict];
    }
}
