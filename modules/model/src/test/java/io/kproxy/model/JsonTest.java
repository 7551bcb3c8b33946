package io.kproxy.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON tree: equality ignores key order, everything is immutable, nothing is null. */
class JsonTest {

    @Test
    void objectEqualityIgnoresKeyOrderButKeepsIt() {
        Json.Obj ab = Json.obj("a", Json.of(1), "b", Json.of("x"));
        Json.Obj ba = Json.obj("b", Json.of("x"), "a", Json.of(1));
        assertThat(ab).isEqualTo(ba);
        assertThat(ab.hashCode()).isEqualTo(ba.hashCode());
        assertThat(ab.fields().keySet()).containsExactly("a", "b");
        assertThat(ba.fields().keySet()).containsExactly("b", "a");
        assertThat(ab).isNotEqualTo(Json.obj("a", Json.of(1)));
        assertThat(ab).isNotEqualTo(Json.obj("a", Json.of(1), "b", Json.of("y")));
    }

    @Test
    void largeObjectsUseTheIndexAndStillBehave() {
        LinkedHashMap<String, Json> m = new LinkedHashMap<>();
        for (int i = 0; i < 40; i++) {
            m.put("k" + i, Json.of(i));
        }
        Json.Obj big = new Json.Obj(m);
        assertThat(big.size()).isEqualTo(40);
        assertThat(big.integer("k39")).contains(39L);
        assertThat(big.field("k40")).isEmpty();
        assertThat(big.fields().containsKey("k0")).isTrue();
        assertThat(big.fields().containsKey(7)).isFalse();
        List<String> reversed = new ArrayList<>(m.keySet()).reversed();
        LinkedHashMap<String, Json> r = new LinkedHashMap<>();
        reversed.forEach(k -> r.put(k, m.get(k)));
        assertThat(new Json.Obj(r)).isEqualTo(big).hasSameHashCodeAs(big);
        assertThat(big.fields()).isEqualTo(m);
        // keys with equal hashes ("Aa", "BB", "AaAa", "BBBB", "AaBB" ...) all stay reachable in the index
        LinkedHashMap<String, Json> colliding = new LinkedHashMap<>();
        String[] parts = {"Aa", "BB"};
        for (int i = 0; i < 16; i++) {
            colliding.put(parts[i & 1] + parts[(i >> 1) & 1] + parts[(i >> 2) & 1] + parts[(i >> 3) & 1], Json.of(i));
        }
        Json.Obj c = new Json.Obj(colliding);
        colliding.forEach((k, v) -> assertThat(c.field(k)).contains(v));
        assertThat(c.field("AaAaAaA")).isEmpty();
        assertThat(c.fields().get(null)).isNull();
    }

    @Test
    void integersAndDecimalsAreDistinct() {
        assertThat(Json.of(1)).isNotEqualTo(new Json.Dec(1.0));
        assertThat(new Json.Dec(0.0)).isNotEqualTo(new Json.Dec(-0.0));
        assertThat(new Json.Dec(0.1)).isEqualTo(new Json.Dec(0.1));
        assertThatThrownBy(() -> new Json.Dec(Double.NaN)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new Json.Dec(Double.POSITIVE_INFINITY)).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void treesAreImmutableAndCopiedFromTheirSources() {
        LinkedHashMap<String, Json> source = new LinkedHashMap<>();
        source.put("a", Json.of(1));
        Json.Obj o = new Json.Obj(source);
        source.put("b", Json.of(2));
        assertThat(o.size()).isEqualTo(1);
        assertThatThrownBy(() -> o.fields().put("c", Json.of(3))).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> o.fields().remove("a")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> o.fields().keySet().remove("a")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> o.fields().entrySet().iterator().next().setValue(Json.of(9)))
                .isInstanceOf(UnsupportedOperationException.class);

        List<Json> items = new ArrayList<>(List.of(Json.of(1)));
        Json.Arr arr = Json.arr(items);
        Json.Arr arr2 = new Json.Arr(items);
        items.add(Json.of(2));
        assertThat(arr.items()).hasSize(1);
        assertThat(arr2.items()).hasSize(1);
        assertThatThrownBy(() -> arr.items().add(Json.of(3))).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> arr2.items().set(0, Json.of(3))).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void withAndWithoutReturnCopies() {
        Json.Obj o = Json.obj("a", Json.of(1), "b", Json.of(2));
        Json.Obj replaced = o.with("a", Json.of(9));
        assertThat(replaced.fields().keySet()).containsExactly("a", "b");
        assertThat(replaced.integer("a")).contains(9L);
        assertThat(o.integer("a")).contains(1L);
        Json.Obj appended = o.with("c", Json.Null.INSTANCE);
        assertThat(appended.fields().keySet()).containsExactly("a", "b", "c");
        assertThat(o.without("a").fields().keySet()).containsExactly("b");
        assertThat(o.without("zz")).isSameAs(o);
    }

    @Test
    void typedAccessorsAreEmptyOnMismatch() {
        Json.Obj o = Json.obj("s", Json.of("x"), "i", Json.of(5), "b", Json.of(true), "o", Json.obj("k", Json.of("v")), "a",
                Json.arr(Json.of(1)), "n", Json.Null.INSTANCE);
        assertThat(o.string("s")).contains("x");
        assertThat(o.string("i")).isEmpty();
        assertThat(o.integer("i")).contains(5L);
        assertThat(o.integer("s")).isEmpty();
        assertThat(o.bool("b")).contains(true);
        assertThat(o.bool("n")).isEmpty();
        assertThat(o.object("o").string("k")).contains("v");
        assertThat(o.object("s")).isSameAs(Json.Obj.EMPTY);
        assertThat(o.object("missing")).isSameAs(Json.Obj.EMPTY);
        assertThat(o.array("a")).containsExactly(Json.of(1));
        assertThat(o.array("o")).isEmpty();
        assertThat(o.field("n")).contains(Json.Null.INSTANCE);
        assertThat(Json.of(false)).isSameAs(Json.Bool.FALSE);
    }

    @Test
    void nullsAreRefused() {
        assertThatThrownBy(() -> Json.of((String) null)).isInstanceOf(InvalidValueException.class);
        Map<String, Json> nullValue = new LinkedHashMap<>();
        nullValue.put("a", null);
        assertThatThrownBy(() -> new Json.Obj(nullValue)).isInstanceOf(InvalidValueException.class);
        Map<String, Json> nullKey = new LinkedHashMap<>();
        nullKey.put(null, Json.of(1));
        assertThatThrownBy(() -> new Json.Obj(nullKey)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> Json.obj("a")).isInstanceOf(InvalidValueException.class);
        List<Json> withNull = new ArrayList<>();
        withNull.add(null);
        assertThatThrownBy(() -> new Json.Arr(withNull)).isInstanceOf(RuntimeException.class);
    }

    @Test
    void emptyContainers() {
        assertThat(new Json.Obj(Map.of())).isEqualTo(Json.Obj.EMPTY);
        assertThat(Json.obj()).isEqualTo(Json.Obj.EMPTY);
        assertThat(Json.arr()).isEqualTo(Json.Arr.EMPTY);
        assertThat(Json.Obj.EMPTY).isNotEqualTo(Json.Arr.EMPTY);
    }

    @Test
    void ownedArraysMakeTheSameObjectAsAMap() {
        Json.Obj adopted = Json.Obj.ofOwnedArrays(new String[] {"b", "a"}, new Json[] {Json.of("x"), Json.of(1)});
        Json.Obj built = Json.obj("b", Json.of("x"), "a", Json.of(1));
        assertThat(adopted).isEqualTo(built).hasSameHashCodeAs(built);
        assertThat(adopted.fields().keySet()).containsExactly("b", "a");
        assertThat(adopted.integer("a")).contains(1L);
        assertThat(Json.Obj.ofOwnedArrays(new String[0], new Json[0])).isSameAs(Json.Obj.EMPTY);
        assertThatThrownBy(() -> adopted.fields().put("c", Json.of(3))).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void ownedArraysAreCheckedLikeAMap() {
        assertThatThrownBy(() -> Json.Obj.ofOwnedArrays(new String[] {"a"}, new Json[0]))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("one value per key");
        assertThatThrownBy(() -> Json.Obj.ofOwnedArrays(new String[] {"a", null}, new Json[] {Json.of(1), Json.of(2)}))
                .isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> Json.Obj.ofOwnedArrays(new String[] {"a"}, new Json[] {null}))
                .isInstanceOf(InvalidValueException.class);
        // duplicates in small objects (hash bit filter, then a scan), including keys whose hashes share
        // their low six bits ("Aa" and "BB" have equal hashes), and in large (indexed) ones
        assertThatThrownBy(() -> Json.Obj.ofOwnedArrays(new String[] {"x", "a", "x"}, new Json[] {Json.of(1), Json.of(2), Json.of(3)}))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("each key once");
        assertThatThrownBy(() -> Json.Obj.ofOwnedArrays(new String[] {"a", new String("a")}, new Json[] {Json.of(1), Json.of(2)}))
                .isInstanceOf(InvalidValueException.class);
        Json.Obj colliding = Json.Obj.ofOwnedArrays(new String[] {"Aa", "BB"}, new Json[] {Json.of(1), Json.of(2)});
        assertThat(colliding.integer("BB")).contains(2L);
        for (int n : new int[] {12, 13, 40}) {
            String[] keys = new String[n];
            Json[] values = new Json[n];
            for (int i = 0; i < n; i++) {
                keys[i] = "k" + i;
                values[i] = Json.of(i);
            }
            assertThat(Json.Obj.ofOwnedArrays(keys.clone(), values.clone()).integer("k" + (n - 1))).contains(n - 1L);
            keys[n - 1] = "k0";
            assertThatThrownBy(() -> Json.Obj.ofOwnedArrays(keys, values)).as("n=%d", n)
                    .isInstanceOf(InvalidValueException.class).hasMessageContaining("each key once");
        }
    }
}
