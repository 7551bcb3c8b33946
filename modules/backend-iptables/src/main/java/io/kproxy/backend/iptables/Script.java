package io.kproxy.backend.iptables;

import io.kproxy.model.IpFamily;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A transaction's text taken apart: one section per family (opened by {@code # IPv4} /
 * {@code # IPv6}), each a list of table blocks ({@code *table ... COMMIT}). Lets an applier run
 * a section the way its iptables variant is fastest (see {@link #merged} and {@link #runs}) and
 * add the lines that depend on what the kernel holds. Mutable while being built; not
 * thread-safe.
 */
final class Script {

    /** One {@code *table ... COMMIT} block, without those two lines. */
    record Block(String table, List<String> lines) {
        /** Chains this block declares that {@code existing} does not hold: the ones it creates. */
        int newChains(Set<String> existing) {
            int n = 0;
            for (String l : lines) {
                if (l.startsWith(":") && !existing.contains(l.substring(1).split(" ", 2)[0])) {
                    n++;
                }
            }
            return n;
        }
    }

    /** One family's blocks. */
    record Section(IpFamily family, List<Block> blocks) {

        /** Every block of a table merged into one, tables in order of first appearance: one commit per table. */
        String merged() {
            Map<String, List<String>> tables = new LinkedHashMap<>();
            for (Block b : blocks) {
                tables.computeIfAbsent(b.table(), t -> new ArrayList<>()).addAll(b.lines());
            }
            StringBuilder sb = new StringBuilder();
            tables.forEach((t, lines) -> write(sb, t, lines));
            return sb.toString();
        }

        /**
         * The blocks grouped into restore runs that each create at most {@code chainBudget}
         * chains not in {@code existing} (a block bigger than that runs alone).
         * {@code iptables-nft-restore --noflush} costs chains x rules created within one run,
         * while rewriting chains the kernel already holds is cheap and each extra run reads the
         * whole table again: so a first full sync of 10,000 services runs as ~30 restores and a
         * resync over loaded tables as one (docs/backends/iptables.md).
         */
        List<String> runs(int chainBudget, Set<String> existing) {
            List<String> out = new ArrayList<>();
            StringBuilder cur = new StringBuilder();
            int chains = 0;
            for (Block b : blocks) {
                int c = b.newChains(existing);
                if (cur.length() > 0 && chains + c > chainBudget) {
                    out.add(cur.toString());
                    cur.setLength(0);
                    chains = 0;
                }
                write(cur, b.table(), b.lines());
                chains += c;
            }
            if (cur.length() > 0) {
                out.add(cur.toString());
            }
            return out;
        }

        /** The last block of {@code table}, created at the end when there is none. */
        Block last(String table) {
            for (int i = blocks.size() - 1; i >= 0; i--) {
                if (blocks.get(i).table().equals(table)) {
                    return blocks.get(i);
                }
            }
            Block b = new Block(table, new ArrayList<>());
            blocks.add(b);
            return b;
        }
    }

    private final List<Section> sections;

    private Script(List<Section> sections) {
        this.sections = sections;
    }

    List<Section> sections() {
        return sections;
    }

    static Script parse(String text) {
        List<Section> sections = new ArrayList<>();
        Section cur = null;
        List<String> block = null;
        String table = null;
        for (String line : text.split("\n")) {
            if (line.equals(Fam.V4.header()) || line.equals(Fam.V6.header())) {
                cur = new Section(line.equals(Fam.V4.header()) ? IpFamily.IPV4 : IpFamily.IPV6, new ArrayList<>());
                sections.add(cur);
            } else if (line.startsWith("*")) {
                if (cur == null) {
                    throw new IllegalArgumentException("a table block outside of a family section: " + line);
                }
                table = line.substring(1);
                block = new ArrayList<>();
            } else if (line.equals("COMMIT")) {
                if (cur == null || block == null) {
                    throw new IllegalArgumentException("COMMIT without a table block");
                }
                cur.blocks().add(new Block(table, block));
                block = null;
            } else if (block != null && !line.isBlank() && !line.startsWith("#")) {
                block.add(line);
            }
        }
        return new Script(sections);
    }

    private static void write(StringBuilder sb, String table, List<String> lines) {
        sb.append('*').append(table).append('\n');
        lines.forEach(l -> sb.append(l).append('\n'));
        sb.append("COMMIT\n");
    }
}
