package io.kproxy.events;

import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the primitives of format version 1: unsigned LEB128 varints, zig-zag signed varints,
 * length-prefixed UTF-8 strings, and JSON trees with a per-record key table (seeded with
 * {@link KeyDictionary}) and a per-record table of repeated string values. Not thread-safe; one
 * writer per record.
 */
final class WireWriter {

    static final int J_NULL = 0;
    static final int J_FALSE = 1;
    static final int J_TRUE = 2;
    static final int J_INT = 3;
    static final int J_DEC = 4;
    static final int J_STR = 5;
    static final int J_ARR = 6;
    static final int J_OBJ = 7;
    static final int J_STR_REF = 8;

    /** String values longer than this are never entered in the repeat table. */
    static final int MAX_INTERNED = 96;

    private byte[] buf = new byte[256];
    private int pos;
    private Map<String, Integer> keys;
    private int nextKey = KeyDictionary.V1.size();
    private Map<String, Integer> values;

    void u8(int b) {
        ensure(1);
        buf[pos++] = (byte) b;
    }

    void varint(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            buf[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[pos++] = (byte) v;
    }

    void zigzag(long v) {
        varint((v << 1) ^ (v >> 63));
    }

    void bool(boolean b) {
        u8(b ? 1 : 0);
    }

    void string(String s) {
        int n = s.length();
        boolean ascii = true;
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) >= 0x80) {
                ascii = false;
                break;
            }
        }
        if (ascii) {
            varint(n);
            ensure(n);
            for (int i = 0; i < n; i++) {
                buf[pos++] = (byte) s.charAt(i);
            }
        } else {
            requireWellFormed(s);
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            varint(b.length);
            ensure(b.length);
            System.arraycopy(b, 0, buf, pos, b.length);
            pos += b.length;
        }
    }

    /**
     * UTF-8 has no form for an unpaired surrogate: {@code getBytes} would write {@code '?'} and the
     * record would decode to another string. Refuse instead of recording something else.
     */
    private static void requireWellFormed(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new InvalidValueException("string", s, "unpaired surrogate at index " + i + " (not valid Unicode; format v1 writes UTF-8)");
            }
        }
    }

    void fixed64(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            buf[pos++] = (byte) (v >>> (56 - 8 * i));
        }
    }

    /** A JSON tree whose root is at depth 0; a value deeper than {@link WireReader#MAX_DEPTH} is refused, as the reader would refuse it. */
    void json(Json value) {
        json(value, 0);
    }

    private void json(Json value, int depth) {
        if (depth > WireReader.MAX_DEPTH) {
            throw new InvalidValueException("json", "depth " + depth, "nested deeper than " + WireReader.MAX_DEPTH + " levels, which format v1 cannot read back");
        }
        switch (value) {
            case Json.Null n -> u8(J_NULL);
            case Json.Bool(boolean b) -> u8(b ? J_TRUE : J_FALSE);
            case Json.Int(long v) -> {
                u8(J_INT);
                zigzag(v);
            }
            case Json.Dec(double d) -> {
                u8(J_DEC);
                fixed64(Double.doubleToRawLongBits(d));
            }
            case Json.Str(String s) -> stringValue(s);
            case Json.Arr(List<Json> items) -> {
                u8(J_ARR);
                varint(items.size());
                for (Json item : items) {
                    json(item, depth + 1);
                }
            }
            case Json.Obj(Map<String, Json> fields) -> {
                u8(J_OBJ);
                varint(fields.size());
                for (Map.Entry<String, Json> e : fields.entrySet()) {
                    key(e.getKey());
                    json(e.getValue(), depth + 1);
                }
            }
        }
    }

    /** A key: {@code 0} then the literal (which joins the table), or {@code index + 1}. */
    private void key(String k) {
        int d = KeyDictionary.indexOf(k);
        if (d >= 0) {
            varint(d + 1L);
            return;
        }
        if (keys == null) {
            keys = new HashMap<>();
        }
        Integer i = keys.get(k);
        if (i != null) {
            varint(i + 1L);
            return;
        }
        keys.put(k, nextKey++);
        varint(0);
        string(k);
    }

    private void stringValue(String s) {
        if (s.length() <= MAX_INTERNED) {
            if (values == null) {
                values = new HashMap<>();
            }
            Integer i = values.get(s);
            if (i != null) {
                u8(J_STR_REF);
                varint(i);
                return;
            }
            values.put(s, values.size());
        }
        u8(J_STR);
        string(s);
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, pos);
    }

    private void ensure(int n) {
        if (pos + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
        }
    }
}
