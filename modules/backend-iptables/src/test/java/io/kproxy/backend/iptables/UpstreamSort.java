package io.kproxy.backend.iptables;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The normalisation upstream's tests apply before comparing dumps ({@code sortIPTablesRules} in
 * {@code pkg/proxy/iptables/proxier_test.go}), so that our output can be compared with
 * upstream's expected dumps verbatim: several blocks of a table are read as one, tables sorted
 * by name, chains with {@code KUBE-NODEPORTS} first, {@code KUBE-SERVICES} second, then other
 * {@code KUBE-*} chains alphabetically, rules grouped by chain (in their order), the rules of
 * {@code KUBE-NODEPORTS} and {@code KUBE-SERVICES} stably sorted by the service named in their
 * comment (the "must be the last rule" rule last), deleted chains' {@code -X} lines at the end.
 */
final class UpstreamSort {

    private UpstreamSort() {
    }

    static String sort(String restoreText) {
        Map<String, Map<String, List<String>>> tables = new TreeMap<>();
        Map<String, List<String>> deleted = new TreeMap<>();
        Map<String, List<String>> chains = null;
        String table = null;
        for (String line : restoreText.split("\n")) {
            if (line.startsWith("*")) {
                table = line.substring(1);
                chains = tables.computeIfAbsent(table, t -> new LinkedHashMap<>());
                deleted.computeIfAbsent(table, t -> new ArrayList<>());
            } else if (line.startsWith(":") && chains != null) {
                chains.computeIfAbsent(line.substring(1).split(" ", 2)[0], c -> new ArrayList<>());
            } else if (line.startsWith("-A ") && chains != null) {
                chains.computeIfAbsent(line.split(" ", 3)[1], c -> new ArrayList<>()).add(line);
            } else if (line.startsWith("-X ") && table != null) {
                String c = line.substring(3).strip();
                deleted.get(table).add(c);
                chains.remove(c);
            }
        }
        StringBuilder b = new StringBuilder();
        for (var t : tables.entrySet()) {
            b.append('*').append(t.getKey()).append('\n');
            List<String> order = new ArrayList<>(t.getValue().keySet());
            order.addAll(deleted.get(t.getKey()));
            order.sort(UpstreamSort::compareChains);
            List<String> rulesOut = new ArrayList<>();
            for (String c : order) {
                b.append(':').append(c).append(" - [0:0]\n");
                List<String> rules = new ArrayList<>(t.getValue().getOrDefault(c, List.of()));
                if (c.equals("KUBE-NODEPORTS") || c.equals("KUBE-SERVICES")) {
                    rules.sort(Comparator.comparing(UpstreamSort::sortKey));
                }
                rulesOut.addAll(rules);
            }
            rulesOut.forEach(r -> b.append(r).append('\n'));
            order.stream().filter(deleted.get(t.getKey())::contains).forEach(c -> b.append("-X ").append(c).append('\n'));
            b.append("COMMIT\n");
        }
        return b.toString();
    }

    private static int compareChains(String a, String b) {
        int ra = rank(a);
        int rb = rank(b);
        return ra != rb ? Integer.compare(ra, rb) : a.compareTo(b);
    }

    private static int rank(String c) {
        return c.equals("KUBE-NODEPORTS") ? 0 : c.equals("KUBE-SERVICES") ? 1 : c.startsWith("KUBE-") ? 2 : 3;
    }

    /** The service name of upstream's {@code orderByCommentServiceName}; the "last rule" sorts after everything. */
    private static String sortKey(String rule) {
        int i = rule.indexOf("--comment ");
        if (i < 0) {
            return "";
        }
        String v = rule.substring(i + 10);
        v = v.startsWith("\"") ? v.substring(1, v.indexOf('"', 1)) : v.split(" ", 2)[0];
        if (v.contains("must be the last rule")) {
            return "\uffff";
        }
        int cut = indexOfAny(v);
        return cut < 0 ? v : v.substring(0, cut);
    }

    private static int indexOfAny(String v) {
        int s = v.indexOf(' ');
        int c = v.indexOf(':');
        return s < 0 ? c : c < 0 ? s : Math.min(s, c);
    }

    /** One family's section of a text with {@code # IPv4} / {@code # IPv6} headers. */
    static String section(String text, Fam f) {
        int start = text.indexOf(f.header() + "\n");
        if (start < 0) {
            return "";
        }
        start += f.header().length() + 1;
        int end = text.indexOf("\n# IPv", start);
        return end < 0 ? text.substring(start) : text.substring(start, end + 1);
    }
}
