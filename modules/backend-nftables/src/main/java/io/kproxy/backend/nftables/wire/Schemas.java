package io.kproxy.backend.nftables.wire;

import io.kproxy.state.PersistentMap;

/**
 * The sets and maps the kernel holds, as far as our own transactions declared them: what the
 * netlink compiler needs to encode elements (it keeps no copy of the elements, chains or rules).
 * Keyed by {@code "<family> <table> <set>"}. Persistent and immutable: a transaction's compile
 * returns the schemas after it, which replace the current ones only once the kernel accepted it.
 */
public final class Schemas {

    private final PersistentMap<String, SetSchema> sets;

    private Schemas(PersistentMap<String, SetSchema> sets) {
        this.sets = sets;
    }

    /** Nothing known: every element operation falls back until a declaration is seen. */
    public static Schemas empty() {
        return new Schemas(PersistentMap.empty());
    }

    static String key(String family, String table, String set) {
        return family + " " + table + " " + set;
    }

    SetSchema get(String family, String table, String set) {
        return sets.get(key(family, table, set));
    }

    Schemas with(String family, String table, String set, SetSchema schema) {
        return new Schemas(sets.plus(key(family, table, set), schema));
    }

    Schemas without(String family, String table, String set) {
        return new Schemas(sets.minus(key(family, table, set)));
    }

    /** Without every set of the table (it was deleted). */
    Schemas withoutTable(String family, String table) {
        String prefix = family + " " + table + " ";
        var next = sets;
        for (String k : sets.keySet()) {
            if (k.startsWith(prefix)) {
                next = next.minus(k);
            }
        }
        return new Schemas(next);
    }

    /** Number of sets known. */
    public int size() {
        return sets.size();
    }

    /** The same declarations of the same sets. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Schemas other && sets.equals(other.sets);
    }

    @Override
    public int hashCode() {
        return sets.hashCode();
    }
}
