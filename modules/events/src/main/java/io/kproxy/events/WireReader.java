package io.kproxy.events;

import io.kproxy.events.EventDecodeException.Reason;
import io.kproxy.model.Json;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;

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
    private String[] keys;
    private Set<String> keySet;
    private int keyCount;
    private String[] values;
    private Set<String> valueSet;
    private int valueCount;

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

    int u8() {
        if (pos >= end) {
            throw error(Reason.TRUNCATED, "expected a byte");
        }
        return buf[pos++] & 0xFF;
    }

    /**
     * An unsigned LEB128 varint of at most 10 bytes. Only the shortest form is accepted: a
     * padded one ({@code 0x80 0x00} for zero) would decode to the same value but re-encode to
     * other bytes, and every record has exactly one encoding.
     */
    long varint() {
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
        long left = end - pos;
        if (n < 0 || n > left / minBytesEach) {
            throw error(Reason.MALFORMED, what + " " + Long.toUnsignedString(n) + " exceeds what the " + left + " bytes left can hold");
        }
        return (int) n;
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
        for (int i = from; i < from + n; i++) {
            if (buf[i] < 0) {
                return utf8(from, n);
            }
        }
        return new String(buf, from, n, StandardCharsets.ISO_8859_1);
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
            case WireWriter.J_STR -> {
                int at = position();
                String s = string();
                if (s.length() <= WireWriter.MAX_INTERNED) {
                    addValue(s, at);
                }
                yield new Json.Str(s);
            }
            case WireWriter.J_STR_REF -> {
                long i = varint();
                if (i < 0 || i >= valueCount) {
                    throw error(Reason.MALFORMED, "string reference " + i + " out of range");
                }
                yield new Json.Str(values[(int) i]);
            }
            case WireWriter.J_ARR -> {
                int n = count(1, "array size");
                List<Json> items = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    items.add(json(depth + 1));
                }
                yield new Json.Arr(items);
            }
            case WireWriter.J_OBJ -> {
                int n = count(2, "object size");
                LinkedHashMap<String, Json> fields = LinkedHashMap.newLinkedHashMap(n);
                for (int i = 0; i < n; i++) {
                    String k = key();
                    if (fields.put(k, json(depth + 1)) != null) {
                        throw error(Reason.MALFORMED, "duplicate object key \"" + k + "\"");
                    }
                }
                yield new Json.Obj(fields);
            }
            default -> throw new EventDecodeException(Reason.MALFORMED, position() - 1, "unknown JSON tag " + tag);
        };
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
        int dict = KeyDictionary.V1.size();
        if (ref == 0) {
            String k = string();
            if (KeyDictionary.indexOf(k) >= 0) {
                throw new EventDecodeException(Reason.MALFORMED, at, "dictionary key \"" + k + "\" written literally");
            }
            if (keySet == null) {
                keySet = new HashSet<>();
                keys = new String[8];
            } else if (keyCount == keys.length) {
                keys = Arrays.copyOf(keys, keyCount * 2);
            }
            if (!keySet.add(k)) {
                throw new EventDecodeException(Reason.MALFORMED, at, "key \"" + k + "\" written literally twice");
            }
            keys[keyCount++] = k;
            return k;
        }
        if (ref < 0 || ref > dict + keyCount) {
            throw new EventDecodeException(Reason.MALFORMED, at, "key reference " + Long.toUnsignedString(ref) + " out of range");
        }
        int i = (int) ref - 1;
        return i < dict ? KeyDictionary.V1.get(i) : keys[i - dict];
    }

    /** Enters a short string value in the repeat table; a second literal of it is refused (see {@link #key}). */
    private void addValue(String s, int at) {
        if (valueSet == null) {
            valueSet = new HashSet<>();
            values = new String[8];
        } else if (valueCount == values.length) {
            values = Arrays.copyOf(values, valueCount * 2);
        }
        if (!valueSet.add(s)) {
            throw new EventDecodeException(Reason.MALFORMED, at, "string \"" + s + "\" written literally twice");
        }
        values[valueCount++] = s;
    }
}
