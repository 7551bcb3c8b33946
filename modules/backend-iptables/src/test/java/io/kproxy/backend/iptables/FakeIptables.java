package io.kproxy.backend.iptables;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An in-memory interpreter of {@code iptables-restore --noflush} input, strict where the real
 * tool is: a chain line creates or flushes, {@code -A}/{@code -I}/{@code -D} need the chain, a
 * jump to a {@code KUBE-} chain needs that chain to exist when the block commits, {@code -X}
 * needs the chain empty and unreferenced. Each block applies atomically. Holds both families.
 * Not thread-safe.
 */
final class FakeIptables {

    private static final List<String> BUILTIN = List.of("INPUT", "FORWARD", "OUTPUT", "PREROUTING", "POSTROUTING");

    /** family header -> table -> chain -> rules. */
    private final Map<String, Map<String, Map<String, List<String>>>> state = new TreeMap<>();

    void apply(String text) {
        String family = null;
        String table = null;
        Map<String, List<String>> work = null;
        for (String line : text.split("\n")) {
            if (line.startsWith("# IPv")) {
                family = line;
            } else if (line.startsWith("*")) {
                table = line.substring(1);
                work = copy(tables(family).getOrDefault(table, new LinkedHashMap<>()));
            } else if (line.equals("COMMIT")) {
                check(work, table);
                tables(family).put(table, work);
                work = null;
            } else if (line.startsWith(":")) {
                work.put(line.substring(1).split(" ", 2)[0], new ArrayList<>());
            } else if (line.startsWith("-A ") || line.startsWith("-I ") || line.startsWith("-D ")) {
                String[] p = line.split(" ", 3);
                List<String> rules = work.computeIfAbsent(p[1], c -> {
                    if (!BUILTIN.contains(c)) {
                        throw new IllegalStateException("no chain " + c + " for: " + line);
                    }
                    return new ArrayList<>();
                });
                switch (p[0]) {
                    case "-A" -> rules.add(p[2]);
                    case "-I" -> rules.addFirst(p[2].substring(p[2].indexOf(' ') + 1));
                    default -> {
                        if (!rules.remove(p[2])) {
                            throw new IllegalStateException("no such rule to delete: " + line);
                        }
                    }
                }
            } else if (line.startsWith("-X ")) {
                String c = line.substring(3);
                List<String> rules = work.get(c);
                if (rules == null || !rules.isEmpty()) {
                    throw new IllegalStateException("cannot delete " + c + ": " + (rules == null ? "no such chain" : "not empty"));
                }
                for (List<String> other : work.values()) {
                    for (String r : other) {
                        if (r.endsWith("-j " + c) || r.contains("-j " + c + " ")) {
                            throw new IllegalStateException("cannot delete " + c + ": still referenced by " + r);
                        }
                    }
                }
                work.remove(c);
            }
        }
    }

    private static void check(Map<String, List<String>> work, String table) {
        for (var e : work.entrySet()) {
            for (String r : e.getValue()) {
                String target = SaveDump.targetOf("-A " + e.getKey() + " " + r);
                if (target.startsWith("KUBE-") && !work.containsKey(target)) {
                    throw new IllegalStateException("in " + table + ", " + e.getKey() + " jumps to missing chain " + target);
                }
            }
        }
    }

    private Map<String, Map<String, List<String>>> tables(String family) {
        if (family == null) {
            throw new IllegalStateException("a block before any family header");
        }
        return state.computeIfAbsent(family, f -> new TreeMap<>());
    }

    private static Map<String, List<String>> copy(Map<String, List<String>> m) {
        Map<String, List<String>> c = new LinkedHashMap<>();
        m.forEach((k, v) -> c.put(k, new ArrayList<>(v)));
        return c;
    }

    /** Every chain and its rules, sorted by family, table and chain; without the canaries. */
    String dump() {
        StringBuilder b = new StringBuilder();
        state.forEach((fam, tables) -> tables.forEach((t, chains) -> new TreeMap<>(chains).forEach((c, rules) -> {
            if (!c.equals(Words.KUBE_PROXY_CANARY)) {
                b.append(fam).append(' ').append(t).append(' ').append(c).append('\n');
                rules.forEach(r -> b.append("  ").append(r).append('\n'));
            }
        })));
        return b.toString();
    }
}
