package io.kproxy.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The changed lines between two lists of lines, in order: {@code - } for a line only the first
 * has, {@code + } for one only the second has (a longest-common-subsequence diff, so that a moved
 * rule shows as moved). Very large inputs fall back to a multiset difference, which loses only
 * the order of the changed lines. Pure.
 */
final class LineDiff {

    private static final long MAX_CELLS = 4_000_000L;

    private LineDiff() {
    }

    static List<String> changes(List<String> a, List<String> b) {
        int head = 0;
        while (head < a.size() && head < b.size() && a.get(head).equals(b.get(head))) {
            head++;
        }
        int tail = 0;
        while (tail < a.size() - head && tail < b.size() - head && a.get(a.size() - 1 - tail).equals(b.get(b.size() - 1 - tail))) {
            tail++;
        }
        List<String> x = a.subList(head, a.size() - tail);
        List<String> y = b.subList(head, b.size() - tail);
        return (long) x.size() * y.size() > MAX_CELLS ? multiset(x, y) : lcs(x, y);
    }

    private static List<String> lcs(List<String> x, List<String> y) {
        int[][] t = new int[x.size() + 1][y.size() + 1];
        for (int i = x.size() - 1; i >= 0; i--) {
            for (int j = y.size() - 1; j >= 0; j--) {
                t[i][j] = x.get(i).equals(y.get(j)) ? t[i + 1][j + 1] + 1 : Math.max(t[i + 1][j], t[i][j + 1]);
            }
        }
        List<String> out = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < x.size() || j < y.size()) {
            if (i < x.size() && j < y.size() && x.get(i).equals(y.get(j))) {
                i++;
                j++;
            } else if (i < x.size() && (j == y.size() || t[i + 1][j] >= t[i][j + 1])) {
                out.add("- " + x.get(i++));
            } else {
                out.add("+ " + y.get(j++));
            }
        }
        return out;
    }

    private static List<String> multiset(List<String> x, List<String> y) {
        Map<String, Integer> inY = new HashMap<>();
        y.forEach(l -> inY.merge(l, 1, Integer::sum));
        Map<String, Integer> inX = new HashMap<>();
        x.forEach(l -> inX.merge(l, 1, Integer::sum));
        List<String> out = new ArrayList<>();
        for (String l : x) {
            if (inY.merge(l, -1, Integer::sum) < 0) {
                out.add("- " + l);
            }
        }
        for (String l : y) {
            if (inX.merge(l, -1, Integer::sum) < 0) {
                out.add("+ " + l);
            }
        }
        return out;
    }
}
