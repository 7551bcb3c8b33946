package io.kproxy.model;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The immutable, insertion-ordered map behind {@link Json.Obj}: two parallel arrays, looked up
 * by a linear scan when small (most Kubernetes objects) and through a hash index when larger:
 * an open-addressing table of positions, with no boxed integers and no entry objects (a
 * replay builds such an index for every large object it decodes).
 */
final class OrderedFields extends AbstractMap<String, Json> {

    private static final int SCAN_LIMIT = 12;
    private static final OrderedFields EMPTY = new OrderedFields(new String[0], new Json[0]);

    private final String[] keys;
    private final Json[] values;
    /** Position + 1 of each key by hash, 0 = free; a power of two at least twice the size; null when small. */
    private final int[] index;

    private OrderedFields(String[] keys, Json[] values) {
        this.keys = keys;
        this.values = values;
        this.index = keys.length > SCAN_LIMIT ? index(keys) : null;
    }

    private static int[] index(String[] keys) {
        int[] table = new int[Integer.highestOneBit(keys.length) << 2];
        int mask = table.length - 1;
        for (int i = 0; i < keys.length; i++) {
            int h = keys[i].hashCode();
            int slot = spread(h) & mask;
            for (int e; (e = table[slot]) != 0; slot = (slot + 1) & mask) {
                if (keys[e - 1].hashCode() == h && keys[e - 1].equals(keys[i])) {
                    throw duplicate(keys[i]);
                }
            }
            table[slot] = i + 1;
        }
        return table;
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }

    /**
     * Adopts two arrays without copying them (see {@link Json.Obj#ofOwnedArrays}): checks that
     * they have the same length, hold no null and no key twice.
     */
    static OrderedFields adopt(String[] keys, Json[] values) {
        int n = keys.length;
        if (values.length != n) {
            throw new InvalidValueException("json", n + " keys, " + values.length + " values", "an object needs one value per key");
        }
        if (n == 0) {
            return EMPTY;
        }
        long seen = 0; // small objects: one bit per key hash; only a repeated bit costs a scan
        for (int i = 0; i < n; i++) {
            String k = keys[i];
            if (k == null || values[i] == null) {
                throw new InvalidValueException("json", String.valueOf(k), "object keys and values must not be null");
            }
            if (n <= SCAN_LIMIT) { // larger objects are checked while their index is built
                long bit = 1L << k.hashCode(); // the shift uses the low six bits
                if ((seen & bit) != 0) {
                    for (int j = 0; j < i; j++) {
                        if (keys[j].equals(k)) {
                            throw duplicate(k);
                        }
                    }
                }
                seen |= bit;
            }
        }
        return new OrderedFields(keys, values);
    }

    private static InvalidValueException duplicate(String key) {
        return new InvalidValueException("json", key, "an object holds each key once");
    }

    static OrderedFields of(Map<String, Json> source) {
        if (source instanceof OrderedFields f) {
            return f;
        }
        if (source.isEmpty()) {
            return EMPTY;
        }
        String[] k = new String[source.size()];
        Json[] v = new Json[source.size()];
        int i = 0;
        for (Map.Entry<String, Json> e : source.entrySet()) {
            if (e.getKey() == null || e.getValue() == null) {
                throw new InvalidValueException("json", String.valueOf(e.getKey()), "object keys and values must not be null");
            }
            k[i] = e.getKey();
            v[i] = e.getValue();
            i++;
        }
        return new OrderedFields(k, v);
    }

    @Override
    public Json get(Object key) {
        if (index != null) {
            if (!(key instanceof String k)) {
                return null;
            }
            int h = k.hashCode();
            int mask = index.length - 1;
            for (int slot = spread(h) & mask, e; (e = index[slot]) != 0; slot = (slot + 1) & mask) {
                if (keys[e - 1].hashCode() == h && keys[e - 1].equals(k)) {
                    return values[e - 1];
                }
            }
            return null;
        }
        for (int i = 0; i < keys.length; i++) {
            if (keys[i].equals(key)) {
                return values[i];
            }
        }
        return null;
    }

    @Override
    public boolean containsKey(Object key) {
        return get(key) != null;
    }

    @Override
    public int size() {
        return keys.length;
    }

    @Override
    public Set<Entry<String, Json>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, Json>> iterator() {
                return new Iterator<>() {
                    private int i;

                    @Override
                    public boolean hasNext() {
                        return i < keys.length;
                    }

                    @Override
                    public Entry<String, Json> next() {
                        if (i >= keys.length) {
                            throw new NoSuchElementException();
                        }
                        Entry<String, Json> e = new SimpleImmutableEntry<>(keys[i], values[i]);
                        i++;
                        return e;
                    }
                };
            }

            @Override
            public int size() {
                return keys.length;
            }
        };
    }
}
