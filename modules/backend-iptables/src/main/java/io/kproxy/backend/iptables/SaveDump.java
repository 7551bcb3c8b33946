package io.kproxy.backend.iptables;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One family's {@code iptables-save} output, taken apart: per table the chains and the rule
 * lines ({@code -A ...}, as the tool prints them). Immutable after parsing.
 */
final class SaveDump {

    private final Map<String, Set<String>> chains = new LinkedHashMap<>();
    private final Map<String, List<String>> rules = new LinkedHashMap<>();

    private SaveDump() {
    }

    static SaveDump parse(String text) {
        SaveDump d = new SaveDump();
        String table = null;
        for (String line : text.split("\n")) {
            if (line.startsWith("*")) {
                table = line.substring(1).strip();
                d.chains.computeIfAbsent(table, t -> new LinkedHashSet<>());
                d.rules.computeIfAbsent(table, t -> new ArrayList<>());
            } else if (table != null && line.startsWith(":")) {
                d.chains.get(table).add(line.substring(1).split(" ", 2)[0]);
            } else if (table != null && line.startsWith("-A ")) {
                d.rules.get(table).add(line.strip());
            }
        }
        return d;
    }

    Set<String> chains(String table) {
        return chains.getOrDefault(table, Set.of());
    }

    List<String> rules(String table) {
        return rules.getOrDefault(table, List.of());
    }

    boolean hasRule(String table, String line) {
        return rules(table).contains(line);
    }

    /** Number of rule lines in every table (iptables-wrapper's fallback measure). */
    int ruleCount() {
        return rules.values().stream().mapToInt(List::size).sum();
    }

    /** The chain a rule line appends to. */
    static String chainOf(String ruleLine) {
        return ruleLine.split(" ", 3)[1];
    }

    /** The rule's jump target, or "" when it has none. */
    static String targetOf(String ruleLine) {
        int j = ruleLine.lastIndexOf(" -j ");
        if (j < 0) {
            return "";
        }
        return ruleLine.substring(j + 4).split(" ", 2)[0];
    }
}
