package io.kproxy.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LineDiffTest {

    @Test
    void showsOnlyTheChangedLinesInOrder() {
        assertThat(LineDiff.changes(List.of("a", "b", "c", "d"), List.of("a", "x", "c", "d", "e")))
                .containsExactly("- b", "+ x", "+ e");
        assertThat(LineDiff.changes(List.of("a"), List.of("a"))).isEmpty();
        assertThat(LineDiff.changes(List.of(), List.of("a", "b"))).containsExactly("+ a", "+ b");
        assertThat(LineDiff.changes(List.of("a", "b"), List.of())).containsExactly("- a", "- b");
    }

    @Test
    void removedAndAddedLinesTurnTheFirstListIntoTheSecondAndAreMinimal() {
        long seed = new Random().nextLong();
        Random r = new Random(seed);
        for (int round = 0; round < 300; round++) {
            List<String> a = random(r);
            List<String> b = random(r);
            List<String> changes = LineDiff.changes(a, b);
            Map<String, Integer> count = new HashMap<>();
            a.forEach(l -> count.merge(l, 1, Integer::sum));
            List<String> removed = new ArrayList<>();
            List<String> added = new ArrayList<>();
            for (String c : changes) {
                (c.startsWith("- ") ? removed : added).add(c.substring(2));
                count.merge(c.substring(2), c.startsWith("- ") ? -1 : 1, Integer::sum);
            }
            Map<String, Integer> want = new HashMap<>();
            b.forEach(l -> want.merge(l, 1, Integer::sum));
            count.values().removeIf(n -> n == 0);
            assertThat(count).as("seed %d round %d: %s -> %s", seed, round, a, b).isEqualTo(want);
            assertThat(isSubsequence(removed, a) && isSubsequence(added, b)).as("seed %d round %d", seed, round).isTrue();
            assertThat(a.size() - removed.size()).as("seed %d round %d: unchanged lines are a longest common subsequence", seed, round)
                    .isEqualTo(lcs(a, b));
        }
    }

    private static List<String> random(Random r) {
        List<String> out = new ArrayList<>();
        for (int i = r.nextInt(12); i > 0; i--) {
            out.add(String.valueOf((char) ('a' + r.nextInt(5))));
        }
        return out;
    }

    private static boolean isSubsequence(List<String> sub, List<String> of) {
        int i = 0;
        for (String s : of) {
            if (i < sub.size() && sub.get(i).equals(s)) {
                i++;
            }
        }
        return i == sub.size();
    }

    private static int lcs(List<String> a, List<String> b) {
        int[][] t = new int[a.size() + 1][b.size() + 1];
        for (int i = 1; i <= a.size(); i++) {
            for (int j = 1; j <= b.size(); j++) {
                t[i][j] = a.get(i - 1).equals(b.get(j - 1)) ? t[i - 1][j - 1] + 1 : Math.max(t[i - 1][j], t[i][j - 1]);
            }
        }
        return t[a.size()][b.size()];
    }
}
