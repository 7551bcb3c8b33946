package io.kproxy.backend.nftables;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Builds nft command text ({@code nft -f} syntax, one command a line) and counts operations.
 * Comment lines ({@code # ...}) are not operations. Not thread-safe.
 */
final class Commands {

    private final StringBuilder text;
    private int operations;

    Commands() {
        this(256);
    }

    /** Room for about {@code chars} characters at once: a full transaction is 14 MB at 10,000 Services. */
    Commands(int chars) {
        text = new StringBuilder(chars);
    }

    /** A guess of a full transaction's size, so that its builder does not grow by doubling. */
    static int fullSize(FamilyPlan v4, FamilyPlan v6) {
        long guess = 8_192 + 1_500L * (v4.fragments().size() + v6.fragments().size());
        return (int) Math.min(guess, Integer.MAX_VALUE - 16);
    }

    void add(String command) {
        text.append(command).append('\n');
        operations++;
    }

    void comment(String comment) {
        text.append("# ").append(Comments.text(comment)).append('\n');
    }

    void blank() {
        if (!text.isEmpty()) {
            text.append('\n');
        }
    }

    int operations() {
        return operations;
    }

    String text() {
        return operations == 0 ? "" : text.toString();
    }

    // ---- the commands of one fragment or object -------------------------------------------------

    static String affinitySetDecl(String table, NftFamily f, String name, int timeoutSeconds) {
        return "add set " + table + " " + name + " { type " + f.addrType() + " ; flags dynamic,timeout ; timeout " + timeoutSeconds + "s ; }";
    }

    static String mapDecl(String table, NftServiceMap m) {
        return mapDecl(table, m.name(), m.type());
    }

    static String mapDecl(String table, String name, String type) {
        return "add map " + table + " " + name + " { " + type + " ; }";
    }

    /**
     * Declares every shared endpoint map {@code plan} wants beyond the base ruleset's first ones,
     * each flushed after when {@code flush}.
     */
    static void endpointMaps(Commands out, FamilyPlan plan, boolean flush) {
        String t = plan.family().table();
        for (String m : plan.endpointMaps().keySet()) {
            if (NftDispatch.inBase(m)) {
                continue;
            }
            out.add(mapDecl(t, m, plan.endpointMapType(m)));
            if (flush) {
                out.add("flush map " + t + " " + m);
            }
        }
    }

    /** {@code add element} (or {@code delete element} with keys only) of {@code entries} of map {@code name}. */
    static String mapElements(String verb, String table, String name, List<NftServiceMap.Entry> entries) {
        StringBuilder b = new StringBuilder(verb).append(" element ").append(table).append(' ').append(name).append(" { ");
        for (int i = 0; i < entries.size(); i++) {
            if (i > 0) {
                b.append(", ");
            }
            b.append(verb.equals("add") ? entries.get(i).text() : entries.get(i).key());
        }
        return b.append(" }").toString();
    }

    /** Writes a whole fragment: sets, maps, chains, rules, map elements, its slots' elements, and the elements it wins. */
    static void fragment(Commands out, FamilyPlan plan, PortFragment p, boolean flushMaps) {
        fragment(out, plan.family(), p, flushMaps, e -> {
            Claims c = plan.elements().get(e.id());
            return c != null && c.winnerOwner().equals(p.name()) && c.winner().equals(e);
        });
    }

    /**
     * The text one fragment's digest is taken of ({@link io.kproxy.backend.RulesetHash}): its
     * comment line and commands as {@link NftPlan#rulesetText()} writes them, but with every
     * shared element it claims, won or not, so that the text depends on this fragment alone.
     */
    static String partText(NftFamily family, PortFragment p) {
        Commands out = new Commands();
        out.comment(p.name() + " " + p.name().protocol().lowerName());
        fragment(out, family, p, false, e -> true);
        return out.text.toString();
    }

    private static void fragment(Commands out, NftFamily family, PortFragment p, boolean flushMaps, Predicate<NftElement> write) {
        String t = family.table();
        Map<String, Integer> sets = new TreeMap<>(p.affinitySets());
        sets.forEach((name, timeout) -> out.add(affinitySetDecl(t, family, name, timeout)));
        for (NftServiceMap m : p.maps()) {
            out.add(mapDecl(t, m));
            if (flushMaps) {
                out.add("flush map " + t + " " + m.name());
            }
        }
        for (NftChain c : p.chains()) {
            out.add("add chain " + t + " " + c.name());
        }
        for (NftChain c : p.chains()) {
            for (String r : c.rules()) {
                out.add("add rule " + t + " " + c.name() + " " + r);
            }
        }
        for (NftServiceMap m : p.maps()) {
            out.add(mapElements("add", t, m.name(), m.entries()));
        }
        for (NftDispatch d : p.dispatches()) {
            out.add(mapElements("add", t, d.map(), d.entries()));
        }
        for (NftElement e : p.elements()) {
            if (write.test(e)) {
                out.add("add element " + t + " " + e.container() + " " + e.body());
            }
        }
    }
}
