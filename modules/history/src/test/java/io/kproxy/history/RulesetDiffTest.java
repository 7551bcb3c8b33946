package io.kproxy.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RulesetDiff#dropMoves}, seeded: random parts whose lines are moved between parts, added
 * and removed. Whatever the moves, the ruleset as a whole changes exactly as before (no real
 * change is hidden), and afterwards no line leaves one part while entering another.
 */
class RulesetDiffTest {

    static final long SEED = Long.getLong("kproxy.seed", 20261126L);

    @Test
    void movesAreDroppedAndNothingElse() {
        for (int c = 0; c < 300; c++) {
            long seed = SEED + c;
            Random r = new Random(seed);
            List<String> parts = List.of("node-wide", "ns/a", "ns/b", "ns/c", "ns/d");
            Map<String, List<String>> before = new LinkedHashMap<>();
            for (String p : parts) {
                if (r.nextInt(5) > 0) {
                    List<String> lines = new ArrayList<>();
                    for (int i = r.nextInt(6); i > 0; i--) {
                        lines.add("line " + r.nextInt(12));
                    }
                    before.put(p, lines);
                }
            }
            Map<String, List<String>> after = new LinkedHashMap<>();
            before.forEach((p, l) -> after.put(p, new ArrayList<>(l)));
            for (int op = r.nextInt(6); op > 0; op--) {
                String from = parts.get(r.nextInt(parts.size()));
                String to = parts.get(r.nextInt(parts.size()));
                List<String> src = after.get(from);
                switch (r.nextInt(3)) {
                    case 0 -> {
                        if (src != null && !src.isEmpty()) {
                            String l = src.remove(r.nextInt(src.size()));
                            after.computeIfAbsent(to, k -> new ArrayList<>()).add(r.nextInt(after.get(to).size() + 1), l);
                        }
                    }
                    case 1 -> {
                        if (src != null && !src.isEmpty()) {
                            src.remove(r.nextInt(src.size()));
                        }
                    }
                    default -> after.computeIfAbsent(to, k -> new ArrayList<>()).add("line " + r.nextInt(12));
                }
            }
            Map<String, Integer> wholeBefore = whole(before, after);
            int leftBefore = changed(before, after);
            int enteredBefore = changed(after, before);
            int moved = RulesetDiff.dropMoves(before, after);
            assertThat(whole(before, after)).as("seed %d: the whole ruleset's change", seed).isEqualTo(wholeBefore);
            // Only changed lines are dropped, one on each side per move.
            assertThat(changed(before, after)).as("seed %d: lines that left a part", seed).isEqualTo(leftBefore - moved);
            assertThat(changed(after, before)).as("seed %d: lines that entered a part", seed).isEqualTo(enteredBefore - moved);
            Map<String, String> left = new HashMap<>();
            for (String p : parts) {
                List<String> was = before.getOrDefault(p, List.of());
                List<String> is = after.getOrDefault(p, List.of());
                for (String l : was) {
                    if (count(was, l) > count(is, l)) {
                        left.put(l, p);
                    }
                }
            }
            for (String p : parts) {
                List<String> was = before.getOrDefault(p, List.of());
                List<String> is = after.getOrDefault(p, List.of());
                for (String l : is) {
                    if (count(is, l) > count(was, l)) {
                        assertThat(left).as("seed %d: %s entered %s and left %s (moved %d)", seed, l, p, left.get(l), moved).doesNotContainKey(l);
                    }
                }
            }
        }
    }

    /** Per line, how many more times the whole of {@code after} holds it than the whole of {@code before}. */
    private static Map<String, Integer> whole(Map<String, List<String>> before, Map<String, List<String>> after) {
        Map<String, Integer> d = new HashMap<>();
        after.values().forEach(l -> l.forEach(x -> d.merge(x, 1, Integer::sum)));
        before.values().forEach(l -> l.forEach(x -> d.merge(x, -1, Integer::sum)));
        d.values().removeIf(v -> v == 0);
        return d;
    }

    /** How many lines the parts of {@code a} hold beyond the same parts of {@code b}. */
    private static int changed(Map<String, List<String>> a, Map<String, List<String>> b) {
        int n = 0;
        for (var e : a.entrySet()) {
            List<String> other = new ArrayList<>(b.getOrDefault(e.getKey(), List.of()));
            for (String l : e.getValue()) {
                if (!other.remove(l)) {
                    n++;
                }
            }
        }
        return n;
    }

    private static long count(List<String> lines, String l) {
        return lines.stream().filter(l::equals).count();
    }
}
