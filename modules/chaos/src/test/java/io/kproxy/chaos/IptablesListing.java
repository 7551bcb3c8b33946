package io.kproxy.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An {@code iptables-save} output in a canonical order, for comparing two listings of the same
 * rules (iptables mode): comment lines dropped, counters zeroed, tables in name order, each
 * table's chain declarations sorted and its rules grouped by chain in chain-name order (the order
 * of rules inside a chain is kept: it is what the rules do). Pure; thread-safe.
 */
final class IptablesListing {

    private IptablesListing() {
    }

    static String canonical(String save) {
        Map<String, Table> tables = new TreeMap<>();
        Table current = null;
        for (String raw : save.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("*")) {
                current = tables.computeIfAbsent(line, k -> new Table());
            } else if (current == null || line.equals("COMMIT")) {
                continue;
            } else if (line.startsWith(":")) {
                current.chains.add(line.replaceAll("\\[[0-9]+:[0-9]+\\]", "[0:0]"));
            } else if (line.startsWith("-A ")) {
                String chain = line.split(" ", 3)[1];
                current.rules.computeIfAbsent(chain, k -> new ArrayList<>()).add(line.replaceAll("^\\[[0-9]+:[0-9]+\\] ", ""));
            }
        }
        StringBuilder b = new StringBuilder();
        tables.forEach((name, t) -> {
            b.append(name).append('\n');
            t.chains.stream().sorted().forEach(c -> b.append(c).append('\n'));
            t.rules.values().forEach(rs -> rs.forEach(r -> b.append(r).append('\n')));
            b.append("COMMIT\n");
        });
        return b.toString();
    }

    private static final class Table {
        final List<String> chains = new ArrayList<>();
        final Map<String, List<String>> rules = new TreeMap<>();
    }
}
