package io.kproxy.backend.nftables;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Normalises {@code nft list ruleset} output for comparing two kernels programmed differently:
 * tables, and the sets, maps and chains of a table, sorted by name (the kernel lists them in
 * creation order); a set's elements sorted (hash sets list them in hash order); rules kept in
 * order. Pure.
 */
final class Listings {

    private Listings() {
    }

    static String normalise(String listing) {
        Map<String, Map<String, String>> tables = new TreeMap<>();
        String table = null;
        String block = null;
        List<String> body = new ArrayList<>();
        StringBuilder elements = null;
        for (String raw : listing.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty()) {
                continue;
            }
            if (elements != null) {
                elements.append(' ').append(line);
                if (line.endsWith("}")) {
                    body.add(sortElements(elements.toString()));
                    elements = null;
                }
                continue;
            }
            if (table == null && line.startsWith("table ")) {
                table = line;
                tables.put(table, new TreeMap<>());
            } else if (block == null && (line.startsWith("set ") || line.startsWith("map ") || line.startsWith("chain "))) {
                block = line;
                body = new ArrayList<>();
            } else if (line.equals("}") && block != null) {
                tables.get(table).put(block, String.join("\n  ", body));
                block = null;
            } else if (line.equals("}")) {
                table = null;
            } else if (block != null && line.startsWith("elements = {") && !line.endsWith("}")) {
                elements = new StringBuilder(line);
            } else if (block != null) {
                body.add(line.startsWith("elements = {") ? sortElements(line) : line);
            } else if (table != null) {
                tables.get(table).put("~" + line, "");
            }
        }
        StringBuilder out = new StringBuilder();
        tables.forEach((t, blocks) -> {
            out.append(t).append('\n');
            blocks.forEach((b, content) -> out.append(' ').append(b).append("\n  ").append(content).append('\n'));
        });
        return out.toString();
    }

    private static String sortElements(String line) {
        String inner = line.substring(line.indexOf('{') + 1, line.lastIndexOf('}')).strip();
        List<String> items = new ArrayList<>();
        for (String e : inner.split(",")) {
            items.add(e.strip());
        }
        items.sort(null);
        return "elements = { " + String.join(", ", items) + " }";
    }
}
