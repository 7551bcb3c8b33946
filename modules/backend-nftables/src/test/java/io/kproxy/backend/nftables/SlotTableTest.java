package io.kproxy.backend.nftables;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.ChainNames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The slot assignment is a pure function of the set of dispatches: any history of additions and
 * removals ends where a table built from scratch does, and reports every dispatch it moved.
 */
class SlotTableTest {

    private static final long SEED = Long.getLong("kproxy.seed", 20261126L);

    private static String chain(int i) {
        return (i % 3 == 0 ? "local-" : "service-") + ChainNames.nftHashAndTruncate("ns/svc-" + i + "/tcp/p80");
    }

    @Test
    void theHashIsTheChainNamesOwnBase32Prefix() {
        assertThat(SlotTable.hash("service-AAAAAAAB-ns/a/tcp/p")).isEqualTo(1);
        assertThat(SlotTable.hash("local-77777777-ns/a/tcp/p")).isEqualTo((1L << 40) - 1);
        assertThat(SlotTable.hash("service-CAAAAAAA-x")).isEqualTo(SlotTable.hash("local-CAAAAAAA-y")).isEqualTo(2L << 35);
    }

    @Test
    void capacityIsTwiceTheCountRoundedUpToAPowerOfTwoAndAtLeastOneMap() {
        assertThat(SlotTable.capacity(0)).isEqualTo(256);
        assertThat(SlotTable.capacity(128)).isEqualTo(256);
        assertThat(SlotTable.capacity(129)).isEqualTo(512);
        assertThat(SlotTable.capacity(10_000)).isEqualTo(32_768);
        assertThat(SlotTable.capacity(100_000)).isEqualTo(262_144);
    }

    @Test
    void positionsAreOrderedLinearProbingWithoutWrapAround() {
        // Three names sharing home 1 and one at home 2 (capacity 256): 1, 2, 3, then 4.
        List<String> names = List.of("service-AAAAAAAB-c", "service-AAAAAAAB-a", "local-AAAAAAAC-z", "local-AAAAAAAB-b");
        SlotTable t = SlotTable.of(names);
        assertThat(t.positions()).containsExactlyInAnyOrderEntriesOf(
                Map.of("local-AAAAAAAB-b", 1, "service-AAAAAAAB-a", 2, "service-AAAAAAAB-c", 3, "local-AAAAAAAC-z", 4));
        // The last home of the table runs past it rather than wrapping to slot 0.
        SlotTable end = SlotTable.of(List.of("service-AAAAAAH7-a", "service-AAAAAAH7-b"));
        assertThat(end.positions()).containsExactlyInAnyOrderEntriesOf(Map.of("service-AAAAAAH7-a", 255, "service-AAAAAAH7-b", 256));
    }

    @Test
    void aLargeTableBuiltOnTwoCoresIsTheOneBuiltOnOne() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 3 * Forked.FROM_PORTS; i++) {
            names.add(chain(i));
        }
        SlotTable one = SlotTable.of(names, false);
        SlotTable two = SlotTable.of(names, true);
        assertThat(two).isEqualTo(one);
        assertThat(two.positions()).isEqualTo(one.positions());
        // the map by position (built apart on one core) drives the shifts of later updates
        Set<String> movedOne = new HashSet<>();
        Set<String> movedTwo = new HashSet<>();
        String gone = names.get(17);
        assertThat(two.minus(gone, movedTwo).plus(chain(-1), movedTwo)).isEqualTo(one.minus(gone, movedOne).plus(chain(-1), movedOne));
        assertThat(movedTwo).isEqualTo(movedOne);
    }

    @Test
    void anyHistoryEndsWhereTheTableBuiltFromScratchDoes() {
        Random random = new Random(SEED);
        for (int round = 0; round < 30; round++) {
            // Few distinct homes in some rounds, so that long clusters form.
            int universe = 40 + random.nextInt(round % 2 == 0 ? 400 : 2_000);
            Set<String> present = new TreeSet<>();
            SlotTable t = SlotTable.empty();
            for (int step = 0; step < 600; step++) {
                String name = chain(random.nextInt(universe));
                Map<String, Integer> before = new HashMap<>(t.positions());
                Set<String> moved = new HashSet<>();
                if (present.remove(name)) {
                    t = t.minus(name, moved);
                } else {
                    present.add(name);
                    t = t.plus(name, moved);
                }
                SlotTable scratch = SlotTable.of(new ArrayList<>(present));
                assertThat(t).as("seed %d round %d step %d", SEED, round, step).isEqualTo(scratch);
                assertThat(t.capacity()).isEqualTo(SlotTable.capacity(present.size()));
                for (var e : t.positions().entrySet()) {
                    if (!e.getValue().equals(before.get(e.getKey()))) {
                        assertThat(moved).as("seed %d: a moved dispatch is reported", SEED).contains(e.getKey());
                    }
                }
            }
        }
    }

    @Test
    void addingOneDispatchMovesOnlyItsCluster() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            names.add(chain(i));
        }
        SlotTable t = SlotTable.of(names);
        Set<String> moved = new HashSet<>();
        t.plus(chain(10_001), moved);
        assertThat(moved).contains(chain(10_001)).hasSizeLessThan(40);
    }
}
