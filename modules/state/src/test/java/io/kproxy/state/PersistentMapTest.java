package io.kproxy.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PersistentMapTest {

    /** Seeded model test: every operation agrees with a TreeMap, and older versions stay intact. */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 42, 20260101, 987654321})
    void behavesLikeTreeMap(long seed) {
        Random rnd = new Random(seed);
        PersistentMap<Integer, String> map = PersistentMap.empty();
        TreeMap<Integer, String> model = new TreeMap<>();
        List<PersistentMap<Integer, String>> versions = new ArrayList<>();
        List<TreeMap<Integer, String>> models = new ArrayList<>();
        for (int step = 0; step < 3000; step++) {
            int key = rnd.nextInt(400);
            String msg = "seed=" + seed + " step=" + step + " key=" + key;
            if (rnd.nextInt(3) == 0) {
                map = map.minus(key);
                model.remove(key);
            } else {
                String value = "v" + rnd.nextInt(5);
                map = map.plus(key, value);
                model.put(key, value);
            }
            assertThat(map.size()).as(msg).isEqualTo(model.size());
            assertThat(map.get(key)).as(msg).isEqualTo(model.get(key));
            if (step % 100 == 0) {
                assertThat(new ArrayList<>(map.entrySet())).as(msg).isEqualTo(new ArrayList<>(model.entrySet()));
                versions.add(map);
                models.add(new TreeMap<>(model));
            }
        }
        for (int i = 0; i < versions.size(); i++) {
            assertThat(versions.get(i)).as("seed=" + seed + " version " + i).isEqualTo(models.get(i));
            assertThat(new ArrayList<>(versions.get(i).keySet())).isEqualTo(new ArrayList<>(models.get(i).keySet()));
        }
    }

    /** Seeded model test of diff: it reports exactly the differences a brute-force comparison finds. */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {7, 11, 13, 2024})
    void diffMatchesBruteForce(long seed) {
        Random rnd = new Random(seed);
        PersistentMap<Integer, Integer> base = PersistentMap.empty();
        for (int i = 0; i < 500; i++) {
            base = base.plus(rnd.nextInt(2000), rnd.nextInt(3));
        }
        for (int round = 0; round < 50; round++) {
            PersistentMap<Integer, Integer> newer = base;
            int edits = 1 + rnd.nextInt(round < 25 ? 5 : 300);
            for (int e = 0; e < edits; e++) {
                int k = rnd.nextInt(2000);
                newer = rnd.nextBoolean() ? newer.plus(k, rnd.nextInt(3)) : newer.minus(k);
            }
            List<String> reported = new ArrayList<>();
            base.diff(newer, recorder(reported));
            List<String> expected = new ArrayList<>();
            TreeMap<Integer, Integer> all = new TreeMap<>(base);
            all.putAll(newer);
            for (Integer k : all.keySet()) {
                Integer a = base.get(k);
                Integer b = newer.get(k);
                if (a == null) {
                    expected.add("+" + k + "=" + b);
                } else if (b == null) {
                    expected.add("-" + k + "=" + a);
                } else if (!a.equals(b)) {
                    expected.add("~" + k + "=" + a + ">" + b);
                }
            }
            assertThat(reported).as("seed=" + seed + " round=" + round).isEqualTo(expected);
            if (rnd.nextBoolean()) {
                base = newer;
            }
        }
    }

    @Test
    void shapeIsCanonicalWhateverTheInsertionOrder() {
        List<Integer> keys = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            keys.add(i * 7);
        }
        PersistentMap<Integer, Integer> a = PersistentMap.empty();
        for (Integer k : keys) {
            a = a.plus(k, k);
        }
        Collections.shuffle(keys, new Random(5));
        PersistentMap<Integer, Integer> b = PersistentMap.empty();
        for (Integer k : keys) {
            b = b.plus(k, k);
            b = b.plus(k + 1, k); // and remove again: removal must restore the canonical shape
            b = b.minus(k + 1);
        }
        assertThat(b).isEqualTo(a);
        assertThat(b.shape()).isEqualTo(a.shape());
        List<String> diffs = new ArrayList<>();
        a.diff(b, recorder(diffs));
        assertThat(diffs).isEmpty();
    }

    @Test
    void diffSkipsSharedSubtrees() {
        PersistentMap<Integer, Integer> big = PersistentMap.empty();
        for (int i = 0; i < 10_000; i++) {
            big = big.plus(i, i);
        }
        PersistentMap<Integer, Integer> changed = big.plus(5000, -1);
        AtomicInteger compared = new AtomicInteger();
        PersistentMap<CountingKey, Integer> counted = PersistentMap.empty();
        for (int i = 0; i < 10_000; i++) {
            counted = counted.plus(new CountingKey(i, compared), i);
        }
        PersistentMap<CountingKey, Integer> counted2 = counted.plus(new CountingKey(5000, compared), -1);
        compared.set(0);
        List<String> diffs = new ArrayList<>();
        counted.diff(counted2, recorder(diffs));
        assertThat(diffs).containsExactly("~k5000=5000>-1");
        // A path of a balanced-ish tree, not the 10,000 entries.
        assertThat(compared.get()).isLessThan(200);
        List<String> plain = new ArrayList<>();
        big.diff(changed, recorder(plain));
        assertThat(plain).containsExactly("~5000=5000>-1");
    }

    @Test
    void noOpUpdatesReturnTheSameInstance() {
        PersistentMap<String, String> m = PersistentMap.<String, String>empty().plus("a", "1").plus("b", "2");
        assertThat(m.plus("a", new String("1"))).isSameAs(m);
        assertThat(m.minus("zz")).isSameAs(m);
        assertThat(PersistentMap.<String, String>empty().minus("a")).isSameAs(PersistentMap.empty());
    }

    @Test
    void refusesNullsAndMutation() {
        PersistentMap<String, String> m = PersistentMap.empty();
        assertThatThrownBy(() -> m.plus(null, "x")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> m.plus("x", null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> m.put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(m.get("absent")).isNull();
        assertThat(m.containsKey("absent")).isFalse();
        assertThat(m.isEmpty()).isTrue();
    }

    @Test
    void copyOfKeepsEntriesAndOrder() {
        Map<String, Integer> src = Map.of("c", 3, "a", 1, "b", 2);
        PersistentMap<String, Integer> m = PersistentMap.copyOf(src);
        assertThat(new ArrayList<>(m.keySet())).containsExactly("a", "b", "c");
        assertThat(PersistentMap.copyOf(m)).isSameAs(m);
    }

    /** Keys whose hash codes collide often, so that priority ties (broken by key order) are common. */
    private record Colliding(int id) implements Comparable<Colliding> {
        @Override
        public int hashCode() {
            return id % 7;
        }

        @Override
        public int compareTo(Colliding o) {
            return Integer.compare(id, o.id);
        }
    }

    @Test
    void copyOfBuildsTheSameShapeAsInsertingOneAtATime() {
        Random random = new Random(42);
        for (int round = 0; round < 300; round++) {
            int n = random.nextInt(round < 50 ? 12 : 3_000);
            Map<String, Integer> hashed = new HashMap<>();
            TreeMap<String, Integer> sorted = new TreeMap<>();
            TreeMap<String, Integer> reversed = new TreeMap<>(Comparator.reverseOrder());
            Map<Colliding, Integer> colliding = new HashMap<>();
            PersistentMap<String, Integer> inserted = PersistentMap.empty();
            PersistentMap<Colliding, Integer> insertedColliding = PersistentMap.empty();
            for (int i = 0; i < n; i++) {
                String k = Integer.toString(random.nextInt(1_000_000), 36);
                int v = random.nextInt();
                hashed.put(k, v);
                sorted.put(k, v);
                reversed.put(k, v);
                inserted = inserted.plus(k, v);
                Colliding c = new Colliding(random.nextInt(5_000));
                colliding.put(c, v);
                insertedColliding = insertedColliding.plus(c, v);
            }
            for (Map<String, Integer> source : List.of(hashed, sorted, reversed)) {
                PersistentMap<String, Integer> copy = PersistentMap.copyOf(source);
                assertThat(copy.shape()).isEqualTo(inserted.shape());
                assertThat(copy).isEqualTo(inserted).hasSize(inserted.size());
                List<String> diffs = new ArrayList<>();
                inserted.diff(copy, recorder(diffs));
                assertThat(diffs).isEmpty();
            }
            assertThat(PersistentMap.copyOf(colliding).shape()).isEqualTo(insertedColliding.shape());
        }
        // A copy stays a persistent map: changes and diffs against it work as against any other.
        PersistentMap<String, Integer> copy = PersistentMap.copyOf(Map.of("a", 1, "b", 2, "c", 3));
        List<String> diffs = new ArrayList<>();
        copy.diff(copy.plus("b", 9).minus("c").plus("d", 4), recorder(diffs));
        assertThat(diffs).containsExactly("~b=2>9", "-c=3", "+d=4");
        assertThatThrownBy(() -> PersistentMap.copyOf(Collections.<String, Integer>singletonMap("a", null))).isInstanceOf(NullPointerException.class);
        assertThat(PersistentMap.copyOf(Map.<String, Integer>of())).isSameAs(PersistentMap.empty());
    }

    @Test
    void concatJoinsTwoKeyRangesIntoTheShapeOfOneMap() {
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            int n = random.nextInt(round < 40 ? 10 : 2_000);
            TreeMap<Integer, Integer> all = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                all.put(random.nextInt(100_000), random.nextInt());
            }
            int pivot = random.nextInt(100_001);
            PersistentMap<Integer, Integer> inserted = PersistentMap.empty();
            PersistentMap<Integer, Integer> lower = PersistentMap.empty();
            PersistentMap<Integer, Integer> higher = PersistentMap.empty();
            for (Map.Entry<Integer, Integer> e : all.entrySet()) {
                inserted = inserted.plus(e.getKey(), e.getValue());
                if (e.getKey() < pivot) {
                    lower = lower.plus(e.getKey(), e.getValue());
                } else {
                    higher = higher.plus(e.getKey(), e.getValue());
                }
            }
            PersistentMap<Integer, Integer> joined = PersistentMap.concat(lower, higher);
            assertThat(joined.shape()).isEqualTo(inserted.shape());
            assertThat(joined).isEqualTo(all).hasSize(all.size());
        }
        PersistentMap<Integer, Integer> a = PersistentMap.<Integer, Integer>empty().plus(1, 1).plus(5, 5);
        PersistentMap<Integer, Integer> b = PersistentMap.<Integer, Integer>empty().plus(5, 6).plus(9, 9);
        assertThatThrownBy(() -> PersistentMap.concat(a, b)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("overlap");
        assertThatThrownBy(() -> PersistentMap.concat(b, a)).isInstanceOf(IllegalArgumentException.class);
        assertThat(PersistentMap.concat(a, PersistentMap.empty())).isSameAs(a);
        assertThat(PersistentMap.concat(PersistentMap.empty(), b)).isSameAs(b);
    }

    private static <K, V> PersistentMap.DiffVisitor<K, V> recorder(List<String> out) {
        return new PersistentMap.DiffVisitor<>() {
            @Override
            public void added(K key, V value) {
                out.add("+" + key + "=" + value);
            }

            @Override
            public void removed(K key, V value) {
                out.add("-" + key + "=" + value);
            }

            @Override
            public void changed(K key, V before, V after) {
                out.add("~" + key + "=" + before + ">" + after);
            }
        };
    }

    /** A key that counts its comparisons. */
    record CountingKey(int value, AtomicInteger counter) implements Comparable<CountingKey> {
        @Override
        public int compareTo(CountingKey o) {
            counter.incrementAndGet();
            return Integer.compare(value, o.value);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof CountingKey k && k.value == value;
        }

        @Override
        public int hashCode() {
            return Objects.hash(value);
        }

        @Override
        public String toString() {
            return "k" + value;
        }
    }
}
