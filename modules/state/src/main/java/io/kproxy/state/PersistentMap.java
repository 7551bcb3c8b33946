package io.kproxy.state;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SortedMap;

/**
 * An immutable sorted map with structural sharing: {@link #plus} and {@link #minus} cost
 * O(log n) and leave the receiver valid, so every older state stays usable for time travel.
 *
 * <p>It is a treap whose priorities are derived from the keys' hash codes (ties broken by key
 * order), so a given key set has exactly one shape. Two maps derived from a common ancestor
 * therefore share every subtree that no change touched, and {@link #diff} skips shared
 * subtrees by identity: comparing a 10,000-entry state with its successor after one change
 * visits O(log n) nodes, not 10,000.
 *
 * <p>Iteration is in ascending key order. Immutable and thread-safe; never holds null keys or
 * values. The {@link Map} mutators throw {@link UnsupportedOperationException}.
 *
 * @param <K> key type, totally ordered and consistent with equals
 * @param <V> value type
 */
public final class PersistentMap<K extends Comparable<? super K>, V> extends AbstractMap<K, V> {

    private static final PersistentMap<?, ?> EMPTY = new PersistentMap<>(null);

    private final Node<K, V> root;

    private PersistentMap(Node<K, V> root) {
        this.root = root;
    }

    @SuppressWarnings("unchecked")
    public static <K extends Comparable<? super K>, V> PersistentMap<K, V> empty() {
        return (PersistentMap<K, V>) EMPTY;
    }

    /**
     * A map holding the entries of {@code source}, with the same shape as one built by
     * {@link #plus} one entry at a time (a given key set has one shape), but built in one pass over
     * the keys in order: a sort (none for a naturally ordered {@link SortedMap}) and a Cartesian
     * tree on the right spine, O(n) nodes allocated instead of O(n log n) path copies (the nftables
     * plan's element map at 100,000 Services: docs/benchmarks.md, "Scale", sixth pass).
     */
    @SuppressWarnings("unchecked")
    public static <K extends Comparable<? super K>, V> PersistentMap<K, V> copyOf(Map<K, V> source) {
        if (source instanceof PersistentMap<K, V> p) {
            return p;
        }
        int n = source.size();
        if (n == 0) {
            return empty();
        }
        Map.Entry<K, V>[] entries = (Map.Entry<K, V>[]) source.entrySet().toArray(new Map.Entry<?, ?>[0]);
        boolean sorted = source instanceof SortedMap<K, V> sm && sm.comparator() == null;
        if (!sorted) {
            Arrays.sort(entries, (a, b) -> a.getKey().compareTo(b.getKey()));
        }
        K[] keys = (K[]) new Comparable<?>[n];
        V[] values = (V[]) new Object[n];
        for (int i = 0; i < n; i++) {
            keys[i] = entries[i].getKey();
            values[i] = entries[i].getValue();
        }
        return ofSorted(keys, values, n);
    }

    /**
     * The map of {@code keys[i]} to {@code values[i]} for {@code i < n}, the keys strictly
     * ascending: {@link #copyOf} without its sort, for a caller that has its keys in order already
     * (the nftables plan's element claims, sorted in two halves on two cores and merged). The
     * arrays are not kept.
     *
     * @throws IllegalArgumentException when the keys are not strictly ascending
     */
    public static <K extends Comparable<? super K>, V> PersistentMap<K, V> ofSorted(K[] keys, V[] values, int n) {
        if (n == 0) {
            return empty();
        }
        int[] prio = new int[n];
        for (int i = 0; i < n; i++) {
            if (keys[i] == null || values[i] == null) {
                throw new NullPointerException("PersistentMap holds no null keys or values");
            }
            if (i > 0 && keys[i - 1].compareTo(keys[i]) >= 0) {
                throw new IllegalArgumentException("keys not strictly ascending: " + keys[i - 1] + ", " + keys[i]);
            }
            prio[i] = priority(keys[i]);
        }
        // The treap is the Cartesian tree of the keys in order under the heap order of above():
        // keep the right spine on a stack; a key pops every spine node it belongs above, and the
        // last one popped becomes its left child.
        int[] left = new int[n];
        int[] right = new int[n];
        Arrays.fill(left, -1);
        Arrays.fill(right, -1);
        int[] spine = new int[n];
        int top = 0;
        for (int i = 0; i < n; i++) {
            int last = -1;
            while (top > 0 && above(keys[i], prio[i], keys[spine[top - 1]], prio[spine[top - 1]])) {
                last = spine[--top];
            }
            left[i] = last;
            if (top > 0) {
                right[spine[top - 1]] = i;
            }
            spine[top++] = i;
        }
        return new PersistentMap<>(build(spine[0], keys, values, prio, left, right));
    }

    /**
     * The entries of {@code lower} and {@code higher}, whose every key is below every key of
     * {@code higher}: the two treaps joined along their spines in O(log n), with the shape the
     * union would have however it was built (a key set has one shape). For a map built in two
     * halves on two threads ({@link Projector}).
     *
     * @throws IllegalArgumentException when the key ranges overlap
     */
    static <K extends Comparable<? super K>, V> PersistentMap<K, V> concat(PersistentMap<K, V> lower, PersistentMap<K, V> higher) {
        if (lower.root == null) {
            return higher;
        }
        if (higher.root == null) {
            return lower;
        }
        Node<K, V> max = lower.root;
        while (max.right != null) {
            max = max.right;
        }
        Node<K, V> min = higher.root;
        while (min.left != null) {
            min = min.left;
        }
        if (max.key.compareTo(min.key) >= 0) {
            throw new IllegalArgumentException("the key ranges overlap: " + max.key + " is not below " + min.key);
        }
        return new PersistentMap<>(merge(lower.root, higher.root));
    }

    private static <K, V> Node<K, V> build(int i, K[] keys, V[] values, int[] prio, int[] left, int[] right) {
        Node<K, V> l = left[i] < 0 ? null : build(left[i], keys, values, prio, left, right);
        Node<K, V> r = right[i] < 0 ? null : build(right[i], keys, values, prio, left, right);
        return Node.of(keys[i], values[i], prio[i], l, r);
    }

    /** Receives the differences found by {@link #diff}, in ascending key order. */
    public interface DiffVisitor<K, V> {
        void added(K key, V value);

        void removed(K key, V value);

        void changed(K key, V before, V after);
    }

    @Override
    @SuppressWarnings("unchecked")
    public V get(Object key) {
        K k = (K) key;
        Node<K, V> n = root;
        while (n != null) {
            int c = k.compareTo(n.key);
            if (c == 0) {
                return n.value;
            }
            n = c < 0 ? n.left : n.right;
        }
        return null;
    }

    @Override
    public boolean containsKey(Object key) {
        return get(key) != null;
    }

    @Override
    public int size() {
        return root == null ? 0 : root.size;
    }

    @Override
    public boolean isEmpty() {
        return root == null;
    }

    /** This map with {@code key} mapped to {@code value}; the receiver itself when nothing changes. */
    public PersistentMap<K, V> plus(K key, V value) {
        if (key == null || value == null) {
            throw new NullPointerException("PersistentMap holds no null keys or values");
        }
        Node<K, V> r = insert(root, key, value, priority(key));
        return r == root ? this : new PersistentMap<>(r);
    }

    /** This map without {@code key}; the receiver itself when the key is absent. */
    public PersistentMap<K, V> minus(K key) {
        Node<K, V> r = remove(root, key);
        return r == root ? this : new PersistentMap<>(r);
    }

    /**
     * Reports how {@code newer} differs from this map: keys only in {@code newer} as added,
     * keys only here as removed, keys whose values are not equal as changed. Subtrees the two
     * maps share are skipped without being visited.
     */
    public void diff(PersistentMap<K, V> newer, DiffVisitor<K, V> visitor) {
        diff(root, newer.root, visitor);
    }

    @Override
    public Set<Entry<K, V>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<K, V>> iterator() {
                return new InOrder<>(root);
            }

            @Override
            public int size() {
                return PersistentMap.this.size();
            }
        };
    }

    /** The tree's structure as text, {@code (left key right)}; for tests of the canonical shape. */
    String shape() {
        StringBuilder sb = new StringBuilder();
        shape(root, sb);
        return sb.toString();
    }

    private static void shape(Node<?, ?> n, StringBuilder sb) {
        if (n == null) {
            sb.append('.');
            return;
        }
        sb.append('(');
        shape(n.left, sb);
        sb.append(' ').append(n.key).append(' ');
        shape(n.right, sb);
        sb.append(')');
    }

    // ---- treap ---------------------------------------------------------------------------------

    private record Node<K, V>(K key, V value, int priority, Node<K, V> left, Node<K, V> right, int size) {
        static <K, V> Node<K, V> of(K key, V value, int priority, Node<K, V> left, Node<K, V> right) {
            return new Node<>(key, value, priority, left, right, 1 + sizeOf(left) + sizeOf(right));
        }

        Node<K, V> withChildren(Node<K, V> l, Node<K, V> r) {
            return l == left && r == right ? this : of(key, value, priority, l, r);
        }
    }

    private static int sizeOf(Node<?, ?> n) {
        return n == null ? 0 : n.size;
    }

    private static int priority(Object key) {
        int h = key.hashCode() * 0x9E3779B9;
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        return h;
    }

    /** True when {@code a} belongs above {@code b}: higher priority, ties to the smaller key. */
    private static <K extends Comparable<? super K>> boolean above(K aKey, int aPrio, K bKey, int bPrio) {
        return aPrio != bPrio ? aPrio > bPrio : aKey.compareTo(bKey) < 0;
    }

    private static <K extends Comparable<? super K>, V> Node<K, V> insert(Node<K, V> n, K key, V value, int prio) {
        if (n == null) {
            return Node.of(key, value, prio, null, null);
        }
        int c = key.compareTo(n.key);
        if (c == 0) {
            return n.value.equals(value) ? n : Node.of(key, value, n.priority, n.left, n.right);
        }
        if (above(key, prio, n.key, n.priority)) {
            // The heap order puts the key above n, so it is not in n's subtree: split and adopt.
            Split<K, V> parts = split3(n, key);
            return Node.of(key, value, prio, parts.below, parts.above);
        }
        return c < 0 ? n.withChildren(insert(n.left, key, value, prio), n.right)
                : n.withChildren(n.left, insert(n.right, key, value, prio));
    }

    private static <K extends Comparable<? super K>, V> Node<K, V> remove(Node<K, V> n, K key) {
        if (n == null) {
            return null;
        }
        int c = key.compareTo(n.key);
        if (c == 0) {
            return merge(n.left, n.right);
        }
        return c < 0 ? n.withChildren(remove(n.left, key), n.right) : n.withChildren(n.left, remove(n.right, key));
    }

    private static <K extends Comparable<? super K>, V> Node<K, V> merge(Node<K, V> a, Node<K, V> b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        if (above(a.key, a.priority, b.key, b.priority)) {
            return a.withChildren(a.left, merge(a.right, b));
        }
        return b.withChildren(merge(a, b.left), b.right);
    }

    /** Three-way split around {@code key}: below, the node with that key (or null), above. */
    private record Split<K, V>(Node<K, V> below, Node<K, V> match, Node<K, V> above) {
    }

    private static <K extends Comparable<? super K>, V> Split<K, V> split3(Node<K, V> n, K key) {
        if (n == null) {
            return new Split<>(null, null, null);
        }
        int c = key.compareTo(n.key);
        if (c == 0) {
            return new Split<>(n.left, n, n.right);
        }
        if (c < 0) {
            Split<K, V> s = split3(n.left, key);
            return new Split<>(s.below, s.match, n.withChildren(s.above, n.right));
        }
        Split<K, V> s = split3(n.right, key);
        return new Split<>(n.withChildren(n.left, s.below), s.match, s.above);
    }

    private static <K extends Comparable<? super K>, V> void diff(Node<K, V> a, Node<K, V> b, DiffVisitor<K, V> v) {
        if (a == b) {
            return;
        }
        if (a == null) {
            forEach(b, v, true);
            return;
        }
        if (b == null) {
            forEach(a, v, false);
            return;
        }
        if (a.key.compareTo(b.key) == 0) {
            diff(a.left, b.left, v);
            if (a.value != b.value && !a.value.equals(b.value)) {
                v.changed(a.key, a.value, b.value);
            }
            diff(a.right, b.right, v);
            return;
        }
        // Different roots: split the lower-priority side around the higher root's key.
        if (above(a.key, a.priority, b.key, b.priority)) {
            Split<K, V> s = split3(b, a.key);
            diff(a.left, s.below, v);
            if (s.match == null) {
                v.removed(a.key, a.value);
            } else if (!a.value.equals(s.match.value)) {
                v.changed(a.key, a.value, s.match.value);
            }
            diff(a.right, s.above, v);
        } else {
            Split<K, V> s = split3(a, b.key);
            diff(s.below, b.left, v);
            if (s.match == null) {
                v.added(b.key, b.value);
            } else if (!s.match.value.equals(b.value)) {
                v.changed(b.key, s.match.value, b.value);
            }
            diff(s.above, b.right, v);
        }
    }

    private static <K, V> void forEach(Node<K, V> n, DiffVisitor<K, V> v, boolean added) {
        if (n == null) {
            return;
        }
        forEach(n.left, v, added);
        if (added) {
            v.added(n.key, n.value);
        } else {
            v.removed(n.key, n.value);
        }
        forEach(n.right, v, added);
    }

    private static final class InOrder<K, V> implements Iterator<Entry<K, V>> {
        private final ArrayDeque<Node<K, V>> stack = new ArrayDeque<>();

        InOrder(Node<K, V> root) {
            pushLeft(root);
        }

        private void pushLeft(Node<K, V> n) {
            while (n != null) {
                stack.push(n);
                n = n.left;
            }
        }

        @Override
        public boolean hasNext() {
            return !stack.isEmpty();
        }

        @Override
        public Entry<K, V> next() {
            if (stack.isEmpty()) {
                throw new NoSuchElementException();
            }
            Node<K, V> n = stack.pop();
            pushLeft(n.right);
            return new SimpleImmutableEntry<>(n.key, n.value);
        }
    }
}
