package io.kproxy.history;

import io.kproxy.events.Envelope;
import io.kproxy.model.ServiceRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code kproxy diff}: two renderings split into node-wide and per-Service lines
 * ({@link RulesetBlocks}), the changed lines of each part ({@link LineDiff}), and under each the
 * records between the two points that touched it ({@link Touches}) — what changed and which
 * Kubernetes change caused it. A line that only moved from one Service's part to another's is
 * not a change of either ({@link #dropMoves}). Deterministic text: parts in order (node-wide first, then Services
 * by namespace and name), records by offset. Reads the records between the points.
 */
final class RulesetDiff {

    private static final String NODE_WIDE = "node-wide";

    private RulesetDiff() {
    }

    static String report(History h, Rendering a, Rendering b) {
        Map<String, List<String>> before = group(a);
        Map<String, List<String>> after = group(b);
        int moved = dropMoves(before, after);
        Map<String, List<String>> changes = new LinkedHashMap<>();
        TreeSet<String> keys = new TreeSet<>(RulesetDiff::compare);
        keys.addAll(before.keySet());
        keys.addAll(after.keySet());
        for (String k : keys) {
            List<String> lines = LineDiff.changes(before.getOrDefault(k, List.of()), after.getOrDefault(k, List.of()));
            if (!lines.isEmpty()) {
                changes.put(k, lines);
            }
        }
        Map<String, List<Envelope>> causes = new LinkedHashMap<>();
        changes.keySet().forEach(k -> causes.put(k, new ArrayList<>()));
        Map<String, Long> types = new TreeMap<>();
        long from = a.point().offset();
        long to = b.point().offset();
        if (to > from) {
            List<ServiceRef> services = changes.keySet().stream().filter(k -> !k.equals(NODE_WIDE)).map(ServiceRef::parse).toList();
            h.walk(h.state(from), to, (record, state, step) -> {
                types.merge(Describe.type(record.event()), 1L, Long::sum);
                if (changes.containsKey(NODE_WIDE) && Touches.nodeWide(record.event(), step)) {
                    causes.get(NODE_WIDE).add(record);
                }
                for (ServiceRef s : services) {
                    if (Touches.service(state.cluster(), step.state().cluster(), record.event(), s)
                            || step.delta().changedServices().contains(s)) {
                        causes.get(s.toString()).add(record);
                    }
                }
            });
        }
        StringBuilder out = new StringBuilder();
        out.append("kproxy diff: ").append(a.mode()).append(" rulesets\n");
        out.append("from ").append(a.point().describe()).append('\n');
        out.append("to   ").append(b.point().describe()).append('\n');
        long records = types.values().stream().mapToLong(Long::longValue).sum();
        out.append("records between: ").append(records);
        if (records > 0) {
            out.append(" (#").append(from + 1).append("..#").append(to).append(")");
            types.forEach((t, n) -> out.append(", ").append(t).append(' ').append(n));
        }
        out.append('\n');
        long services = changes.keySet().stream().filter(k -> !k.equals(NODE_WIDE)).count();
        out.append(changes.isEmpty() ? "no rule changed\n" : services + (services == 1 ? " Service" : " Services") + " changed, node-wide rules "
                + (changes.containsKey(NODE_WIDE) ? "changed" : "unchanged") + "\n");
        if (moved > 0) {
            out.append(moved).append(moved == 1 ? " shared line" : " shared lines")
                    .append(" written under another Service than before, unchanged in the kernel (not shown)\n");
        }
        changes.forEach((k, lines) -> {
            out.append("\n== ").append(k).append('\n');
            lines.forEach(l -> out.append(l).append('\n'));
            List<Envelope> why = causes.get(k);
            out.append(why.isEmpty() ? "caused by: no record between the two points touched it (a rendering change?)\n" : "caused by:\n");
            why.forEach(e -> out.append("  ").append(Describe.record(e)).append('\n'));
        });
        return out.toString();
    }

    /**
     * Removes the lines that only changed hands: a line that leaves one part and enters another
     * with the same text (and section) is one object the kernel held throughout. The backends
     * write an element several service ports claim (a shared endpoint's {@code hairpin-connections}
     * element, an external IP two Services both name) once, in the part of the first claimant by service
     * port; when that claimant changes or goes, the line moves to the next one's part, which no
     * record touched. Edits the lists in place; returns the number of lines removed from each side.
     */
    static int dropMoves(Map<String, List<String>> before, Map<String, List<String>> after) {
        Map<String, List<String>> left = new TreeMap<>();
        Map<String, List<String>> entered = new TreeMap<>();
        TreeSet<String> keys = new TreeSet<>(before.keySet());
        keys.addAll(after.keySet());
        for (String k : keys) {
            List<String> was = before.getOrDefault(k, List.of());
            List<String> is = after.getOrDefault(k, List.of());
            minus(was, is).forEach(l -> left.computeIfAbsent(l, x -> new ArrayList<>()).add(k));
            minus(is, was).forEach(l -> entered.computeIfAbsent(l, x -> new ArrayList<>()).add(k));
        }
        int moved = 0;
        for (Map.Entry<String, List<String>> e : left.entrySet()) {
            List<String> to = entered.getOrDefault(e.getKey(), List.of());
            for (int i = 0; i < Math.min(e.getValue().size(), to.size()); i++) {
                before.get(e.getValue().get(i)).remove(e.getKey());
                after.get(to.get(i)).remove(e.getKey());
                moved++;
            }
        }
        return moved;
    }

    /** {@code a} without one occurrence of each line of {@code b} (a multiset difference, in {@code a}'s order). */
    private static List<String> minus(List<String> a, List<String> b) {
        Map<String, Integer> count = new HashMap<>();
        b.forEach(l -> count.merge(l, 1, Integer::sum));
        List<String> out = new ArrayList<>();
        for (String l : a) {
            if (count.getOrDefault(l, 0) > 0) {
                count.merge(l, -1, Integer::sum);
            } else {
                out.add(l);
            }
        }
        return out;
    }

    /** Rule lines per part ({@value #NODE_WIDE} or {@code ns/name}); iptables lines carry their section. */
    private static Map<String, List<String>> group(Rendering r) {
        boolean section = RulesetBlocks.showsSection(r.mode());
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (RulesetBlocks.Line l : RulesetBlocks.parse(r.mode(), r.text())) {
            if (l.kind() == RulesetBlocks.Kind.RULE) {
                String key = l.owner().map(ServiceRef::toString).orElse(NODE_WIDE);
                out.computeIfAbsent(key, k -> new ArrayList<>()).add(section ? "[" + l.section() + "] " + l.text() : l.text());
            }
        }
        return out;
    }

    /** Node-wide first, then Services by namespace and name. */
    private static int compare(String x, String y) {
        if (x.equals(y)) {
            return 0;
        }
        if (x.equals(NODE_WIDE) || y.equals(NODE_WIDE)) {
            return x.equals(NODE_WIDE) ? -1 : 1;
        }
        return ServiceRef.parse(x).compareTo(ServiceRef.parse(y));
    }
}
