package io.kproxy.chaos;

import io.kproxy.testkit.NetNs;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The convergence comparison. The kernel's table is read with {@code nft list table ip
 * kube-proxy} in the node's namespace; a render ({@code kproxy render}, nft commands) is
 * loaded with {@code nft -f} into a scratch namespace of the runner's and listed the same way,
 * so both sides are the kernel's own listing, and then put in a canonical order (the order of a
 * table's sets, maps and chains and of set elements is the kernel's, not part of what the rules
 * do). Not thread-safe (one scratch namespace).
 */
final class Rulesets {

    private final NetNs node;
    private final NetNs scratch;

    Rulesets(NetNs node, NetNs scratch) {
        this.node = node;
        this.scratch = scratch;
    }

    /** The node's IPv4 kube-proxy table, normalised; empty when there is none. */
    String kernel() {
        NetNs.Result r = node.tryExecWithInput(null, "nft", "list", "table", "ip", "kube-proxy");
        return r.exitCode() == 0 ? normalise(r.stdout()) : "";
    }

    /** {@code rendered} (nft commands) as the kernel lists its IPv4 kube-proxy table, normalised; or an error line. */
    String loaded(String rendered) {
        scratch.exec("nft", "flush", "ruleset");
        NetNs.Result load = scratch.tryExecWithInput(rendered, "nft", "-f", "-");
        if (load.exitCode() != 0) {
            return "(render does not load: " + load.stderr().strip() + ")";
        }
        NetNs.Result r = scratch.tryExecWithInput(null, "nft", "list", "table", "ip", "kube-proxy");
        return r.exitCode() == 0 ? normalise(r.stdout()) : "";
    }

    /** A ruleset listing in canonical order: each table's objects sorted, and each set's elements. */
    static String normalise(String ruleset) {
        Matcher m = Pattern.compile("elements = \\{([^}]*)\\}").matcher(ruleset);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            List<String> items = new ArrayList<>();
            for (String s : m.group(1).split(",")) {
                items.add(s.strip());
            }
            items.sort(null);
            m.appendReplacement(sb, Matcher.quoteReplacement("elements = { " + String.join(", ", items) + " }"));
        }
        m.appendTail(sb);
        List<String> out = new ArrayList<>();
        List<String> blocks = new ArrayList<>();
        StringBuilder block = null;
        for (String line : sb.toString().split("\n")) {
            if (block == null && line.matches("\t(set|map|chain|flowtable) .*\\{")) {
                block = new StringBuilder(line);
            } else if (block != null) {
                block.append('\n').append(line);
                if (line.equals("\t}")) {
                    blocks.add(block.toString());
                    block = null;
                }
            } else if (line.equals("}")) {
                blocks.sort(null);
                out.addAll(blocks);
                blocks.clear();
                out.add(line);
            } else if (!line.isBlank()) {
                out.add(line);
            }
        }
        return String.join("\n", out);
    }

    /** The first line where {@code a} and {@code b} differ, for a violation's detail. */
    static String firstDifference(String a, String b) {
        String[] x = a.split("\n");
        String[] y = b.split("\n");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            String l = i < x.length ? x[i] : "(end)";
            String r = i < y.length ? y[i] : "(end)";
            if (!l.equals(r)) {
                return "line " + (i + 1) + ": [" + l.strip() + "] vs [" + r.strip() + "]";
            }
        }
        return "equal";
    }
}
