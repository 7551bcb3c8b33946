package io.kproxy.backend.nftables;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An in-memory interpreter of the nft commands this backend writes (in the spirit of knftables'
 * {@code Fake}): tables, chains with rules, sets and maps with elements, applied atomically, with
 * the kernel's refusals that matter for ordering (a missing object, deleting a referenced or
 * non-empty chain, re-adding an element with another value). {@link #dump()} is a canonical
 * text of the whole state.
 */
final class FakeNft {

    static final class Table {
        String options = "";
        final Map<String, List<String>> chains = new TreeMap<>();
        final Map<String, String> chainDecl = new TreeMap<>();
        final Map<String, String> setDecl = new TreeMap<>();
        final Map<String, Map<String, String>> elements = new TreeMap<>();

        Table copy() {
            Table t = new Table();
            t.options = options;
            chains.forEach((k, v) -> t.chains.put(k, new ArrayList<>(v)));
            t.chainDecl.putAll(chainDecl);
            t.setDecl.putAll(setDecl);
            elements.forEach((k, v) -> t.elements.put(k, new TreeMap<>(v)));
            return t;
        }
    }

    private Map<String, Table> tables = new TreeMap<>();

    private static final Pattern CMD = Pattern.compile("^(add|delete|flush) (table|chain|set|map|rule|element) (ip6?) (\\S+)(?: (\\S+))?(?: (.*))?$");
    private static final Pattern ELEMENT = Pattern.compile("^(.*?)(?: comment \"([^\"]*)\")?(?: : (.*))?$");

    void apply(io.kproxy.backend.Transaction tx) {
        apply(tx.text());
    }

    /** Applies a transaction atomically; throws {@link IllegalStateException} naming the failing line. */
    void apply(String text) {
        Map<String, Table> work = new TreeMap<>();
        tables.forEach((k, v) -> work.put(k, v.copy()));
        int n = 0;
        for (String line : text.split("\n")) {
            n++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            try {
                exec(work, line);
            } catch (RuntimeException e) {
                throw new IllegalStateException("line " + n + ": " + line + ": " + e.getMessage(), e);
            }
        }
        tables = work;
    }

    private static void exec(Map<String, Table> tables, String line) {
        Matcher m = CMD.matcher(line);
        if (!m.matches()) {
            throw new IllegalArgumentException("unparsed");
        }
        String verb = m.group(1);
        String kind = m.group(2);
        String tkey = m.group(3) + " " + m.group(4);
        String name = m.group(5);
        String rest = m.group(6) == null ? "" : m.group(6);
        if (kind.equals("table")) {
            switch (verb) {
                case "add" -> {
                    Table t = tables.computeIfAbsent(tkey, k -> new Table());
                    // A table's options (its comment) are set when it is created.
                    String options = ((m.group(5) == null ? "" : m.group(5)) + " " + (m.group(6) == null ? "" : m.group(6))).strip();
                    if (t.options.isEmpty()) {
                        t.options = options;
                    }
                }
                case "delete" -> check(tables.remove(tkey) != null, "no such table");
                case "flush" -> require(tables.get(tkey), "no such table").chains.replaceAll((k, v) -> new ArrayList<>());
                default -> throw new IllegalArgumentException(verb);
            }
            return;
        }
        Table t = tables.get(tkey);
        check(t != null, "no such table");
        switch (kind) {
            case "chain" -> {
                switch (verb) {
                    case "add" -> {
                        String old = t.chainDecl.putIfAbsent(name, rest);
                        check(old == null || old.equals(rest), "chain exists with other properties");
                        t.chains.putIfAbsent(name, new ArrayList<>());
                    }
                    case "flush" -> require(t.chains.get(name), "no such chain").clear();
                    case "delete" -> {
                        check(t.chains.containsKey(name), "no such chain");
                        check(t.chains.get(name).isEmpty(), "chain not empty");
                        check(!referenced(t, name), "chain in use");
                        t.chains.remove(name);
                        t.chainDecl.remove(name);
                    }
                    default -> throw new IllegalArgumentException(verb);
                }
            }
            case "set", "map" -> {
                switch (verb) {
                    case "add" -> {
                        String old = t.setDecl.putIfAbsent(name, rest);
                        check(old == null || old.equals(rest), "set exists with other properties");
                        t.elements.putIfAbsent(name, new TreeMap<>());
                    }
                    case "flush" -> require(t.elements.get(name), "no such set").clear();
                    case "delete" -> {
                        check(t.elements.containsKey(name), "no such set");
                        check(t.chains.values().stream().flatMap(List::stream).noneMatch(r -> r.contains("@" + name + " ")
                                || r.endsWith("@" + name)), "set in use");
                        t.elements.remove(name);
                        t.setDecl.remove(name);
                    }
                    default -> throw new IllegalArgumentException(verb);
                }
            }
            case "rule" -> {
                check(verb.equals("add"), "only add rule");
                List<String> chain = require(t.chains.get(name), "no such chain");
                for (String word : rest.split(" ")) {
                    if (word.startsWith("@")) {
                        check(t.elements.containsKey(word.substring(1)), "no such set " + word);
                    }
                }
                Matcher target = Pattern.compile("(?:goto|jump) (\\S+)").matcher(rest);
                while (target.find()) {
                    check(t.chains.containsKey(target.group(1)), "no such chain " + target.group(1));
                }
                chain.add(rest);
            }
            case "element" -> {
                Map<String, String> elems = require(t.elements.get(name), "no such set");
                String body = rest.strip();
                check(body.startsWith("{ ") && body.endsWith(" }"), "element list");
                for (String one : splitElements(body.substring(2, body.length() - 2))) {
                    Matcher em = ELEMENT.matcher(one.strip());
                    check(em.matches(), "element");
                    String key = em.group(1);
                    String value = (em.group(3) == null ? "" : em.group(3)) + (em.group(2) == null ? "" : " #" + em.group(2));
                    if (verb.equals("add")) {
                        if (em.group(3) != null && em.group(3).startsWith("goto ")) {
                            check(t.chains.containsKey(em.group(3).substring(5)), "no such chain " + em.group(3));
                        }
                        String old = elems.putIfAbsent(key, value);
                        check(old == null || old.equals(value), "element exists with another value");
                    } else if (verb.equals("delete")) {
                        check(elems.remove(key) != null, "no such element " + key);
                    } else {
                        throw new IllegalArgumentException(verb);
                    }
                }
            }
            default -> throw new IllegalArgumentException(kind);
        }
    }

    private static boolean referenced(Table t, String chain) {
        String go = "goto " + chain;
        String jump = "jump " + chain;
        boolean inRules = t.chains.values().stream().flatMap(List::stream)
                .anyMatch(r -> r.endsWith(go) || r.contains(go + " ") || r.endsWith(jump) || r.contains(jump + " "));
        boolean inMaps = t.elements.values().stream().flatMap(e -> e.values().stream()).anyMatch(v -> v.equals(go) || v.startsWith(go + " #"));
        return inRules || inMaps;
    }

    private static List<String> splitElements(String list) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        boolean quoted = false;
        StringBuilder cur = new StringBuilder();
        for (char c : list.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (!quoted && c == '{') {
                depth++;
            } else if (!quoted && c == '}') {
                depth--;
            } else if (!quoted && depth == 0 && c == ',') {
                out.add(cur.toString());
                cur.setLength(0);
                continue;
            }
            cur.append(c);
        }
        out.add(cur.toString());
        return out;
    }

    private static <T> T require(T value, String why) {
        if (value == null) {
            throw new IllegalStateException(why);
        }
        return value;
    }

    private static void check(boolean ok, String why) {
        if (!ok) {
            throw new IllegalStateException(why);
        }
    }

    /** The whole state as canonical text. */
    String dump() {
        StringBuilder b = new StringBuilder();
        tables.forEach((name, t) -> {
            b.append("table ").append(name).append('\n');
            t.setDecl.forEach((s, decl) -> b.append("  set ").append(s).append(' ').append(decl).append(' ').append(t.elements.get(s)).append('\n'));
            t.chains.forEach((c, rules) -> {
                b.append("  chain ").append(c).append(' ').append(t.chainDecl.get(c)).append('\n');
                rules.forEach(r -> b.append("    ").append(r).append('\n'));
            });
        });
        return b.toString();
    }

    /**
     * The whole state as {@code nft -f} commands (declarations, chains, rules, elements), to load
     * into a kernel and compare its listing with one programmed otherwise.
     */
    String toScript() {
        StringBuilder b = new StringBuilder();
        tables.forEach((name, t) -> {
            b.append("add table ").append(name).append(t.options.isEmpty() ? "" : " " + t.options).append('\n');
            t.setDecl.forEach((s, decl) -> b.append("add ").append(decl.contains(" : ") ? "map " : "set ").append(name).append(' ')
                    .append(s).append(' ').append(decl).append('\n'));
            t.chains.forEach((c, rules) -> b.append("add chain ").append(name).append(' ').append(c)
                    .append(t.chainDecl.get(c).isEmpty() ? "" : " " + t.chainDecl.get(c)).append('\n'));
            t.chains.forEach((c, rules) -> rules.forEach(r -> b.append("add rule ").append(name).append(' ').append(c).append(' ').append(r).append('\n')));
            t.elements.forEach((s, elems) -> elems.forEach((key, value) -> {
                int hash = value.indexOf(" #");
                String v = hash >= 0 ? value.substring(0, hash) : value;
                String comment = hash >= 0 ? " comment \"" + value.substring(hash + 2) + "\"" : "";
                b.append("add element ").append(name).append(' ').append(s).append(" { ").append(key).append(comment)
                        .append(v.isEmpty() ? "" : " : " + v).append(" }\n");
            }));
        });
        return b.toString();
    }

    Map<String, Table> tables() {
        return new LinkedHashMap<>(tables);
    }
}
