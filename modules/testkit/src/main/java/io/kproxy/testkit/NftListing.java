package io.kproxy.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An {@code nft list} output in a canonical order, for comparing two listings of the same rules:
 * the kernel lists a table's sets, maps and chains in the order they were created and hash-set
 * elements in an order of its own, neither of which is part of what the rules do; so each table's
 * objects are sorted, and so are set elements. Blank lines are dropped. Pure; thread-safe.
 */
public final class NftListing {

    private static final Pattern ELEMENTS = Pattern.compile("elements = \\{([^}]*)\\}");

    private NftListing() {
    }

    /** {@code listing} in canonical order; never null. */
    public static String canonical(String listing) {
        Matcher m = ELEMENTS.matcher(listing);
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
}
