package io.kproxy.backend.nftables;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One family's {@link SlotTable}s, one per protocol ({@code tcp}, {@code udp}, {@code sctp}):
 * each protocol has maps of its own, because a map's data is typed after the protocol. Immutable.
 */
record Slots(Map<String, SlotTable> byProto) {

    static final Slots EMPTY = new Slots(Map.of());

    Slots {
        byProto = Map.copyOf(byProto);
    }

    /**
     * The tables holding exactly the given chains, per protocol; with {@code fork} each table's two
     * maps are built on two cores ({@link SlotTable#of(java.util.Collection, boolean)}).
     */
    static Slots of(Map<String, List<String>> chainsByProto, boolean fork) {
        Map<String, SlotTable> t = new HashMap<>();
        chainsByProto.forEach((proto, chains) -> t.put(proto, SlotTable.of(chains, fork)));
        return new Slots(t);
    }

    SlotTable table(String proto) {
        return byProto.getOrDefault(proto, SlotTable.empty());
    }

    Slots with(String proto, SlotTable table) {
        if (table(proto) == table) {
            return this;
        }
        Map<String, SlotTable> t = new HashMap<>(byProto);
        if (table.size() == 0) {
            t.remove(proto);
        } else {
            t.put(proto, table);
        }
        return new Slots(t);
    }

    int position(String proto, String chain) {
        return table(proto).position(chain);
    }
}
