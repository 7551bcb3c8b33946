package io.kproxy.backend.nftables.wire;

import io.kproxy.netlink.NfBatch;
import io.kproxy.netlink.NfFamily;
import io.kproxy.netlink.NfHook;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compiles a transaction's text, in the canonical form this backend writes (one {@code nft -f}
 * command a line: {@code add|delete|flush table|chain|set|map|rule|element <ip|ip6> <table> …}),
 * into one netlink batch for {@link io.kproxy.netlink.NfTablesClient}, without asking the kernel
 * anything: element keys are encoded from the set declarations seen earlier ({@link Schemas}).
 * Any line outside that grammar makes the whole transaction go through libnftables instead (a
 * transaction is atomic, so it is never split between the two). Pure and thread-safe.
 */
public final class BatchCompiler {

    private static final Pattern COMMAND = Pattern.compile("^(add|delete|flush) (table|chain|set|map|rule|element) (ip6?) (\\S+)(?: (.*))?$");
    private static final Pattern HOOK = Pattern.compile("^\\{ type (filter|nat) hook (prerouting|input|forward|output|postrouting) priority (-?\\d+) ; }$");
    private static final Pattern COMMENT = Pattern.compile("^\\{ comment \"([^\"]*)\" ; }$");
    private static final Pattern BODY = Pattern.compile("^(\\S+) \\{ (.*) }$");

    private BatchCompiler() {
    }

    /**
     * A compiled transaction: the batch, the 1-based text line of each batch operation, and the
     * schemas once the kernel has accepted it.
     */
    public record Compiled(NfBatch batch, int[] lineOfOperation, Schemas after) {
    }

    /** The outcome: a batch, or why the text needs libnftables. */
    public record Result(Optional<Compiled> compiled, String unsupported) {
    }

    public static Result compile(String text, Schemas schemas) {
        NfBatch batch = new NfBatch();
        List<Integer> lines = new ArrayList<>();
        Schemas s = schemas;
        String[] all = text.split("\n");
        for (int i = 0; i < all.length; i++) {
            String line = all[i];
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            try {
                s = command(batch, line, s);
            } catch (Unsupported | IllegalArgumentException e) {
                return new Result(Optional.empty(), "line " + (i + 1) + ": " + e.getMessage());
            }
            while (lines.size() < batch.size()) {
                lines.add(i + 1);
            }
        }
        int[] map = lines.stream().mapToInt(Integer::intValue).toArray();
        return new Result(Optional.of(new Compiled(batch, map, s)), null);
    }

    /**
     * The schemas after the kernel applied {@code text} some other way (libnftables): declarations
     * added, deleted sets and tables dropped. A declaration this compiler does not understand
     * leaves its set unknown, so that later element changes to it fall back too.
     */
    public static Schemas track(String text, Schemas schemas) {
        Schemas s = schemas;
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = COMMAND.matcher(line);
            if (!m.matches()) {
                return Schemas.empty();
            }
            String verb = m.group(1);
            String kind = m.group(2);
            String fam = m.group(3);
            String table = m.group(4);
            String rest = m.group(5) == null ? "" : m.group(5);
            if (kind.equals("table") && verb.equals("delete")) {
                s = s.withoutTable(fam, table);
            } else if ((kind.equals("set") || kind.equals("map")) && !verb.equals("flush")) {
                String name = rest.split(" ", 2)[0];
                s = s.without(fam, table, name);
                if (verb.equals("add")) {
                    try {
                        s = s.with(fam, table, name, declaration(fam, rest));
                    } catch (Unsupported | IllegalArgumentException e) {
                        // stays unknown
                    }
                }
            }
        }
        return s;
    }

    private static SetSchema declaration(String fam, String rest) {
        Matcher b = BODY.matcher(rest);
        if (!b.matches()) {
            throw new Unsupported("set declaration " + rest);
        }
        return SetSchema.parse(b.group(1), fam.equals("ip6"), b.group(2));
    }

    private static Schemas command(NfBatch batch, String line, Schemas s) {
        Matcher m = COMMAND.matcher(line);
        if (!m.matches()) {
            throw new Unsupported("command " + line);
        }
        String verb = m.group(1);
        String kind = m.group(2);
        String fam = m.group(3);
        NfFamily f = fam.equals("ip6") ? NfFamily.IPV6 : NfFamily.IPV4;
        String table = m.group(4);
        String rest = m.group(5) == null ? "" : m.group(5);
        switch (kind) {
            case "table" -> {
                return table(batch, verb, f, fam, table, rest, s);
            }
            case "chain" -> chain(batch, verb, f, table, rest);
            case "set", "map" -> {
                return set(batch, verb, f, fam, table, rest, s);
            }
            case "rule" -> {
                if (!verb.equals("add")) {
                    throw new Unsupported(verb + " rule");
                }
                String[] cr = rest.split(" ", 2);
                if (cr.length != 2) {
                    throw new Unsupported("rule without statements");
                }
                RuleCompiler.Compiled r = RuleCompiler.compile(cr[1], f == NfFamily.IPV6, name -> s.get(fam, table, name));
                int[] ids = new int[r.sets().size()];
                for (int i = 0; i < ids.length; i++) {
                    RuleCompiler.AnonymousSet a = r.sets().get(i);
                    ids[i] = batch.addSet(f, table, a.spec());
                    batch.addElements(f, table, a.spec().name(), ids[i], a.elements());
                }
                batch.addRule(f, table, cr[0], r.resolve(ids), r.userdata());
            }
            case "element" -> {
                Matcher b = BODY.matcher(rest);
                if (!b.matches() || verb.equals("flush")) {
                    throw new Unsupported("element command " + line);
                }
                SetSchema schema = s.get(fam, table, b.group(1));
                if (schema == null) {
                    throw new Unsupported("elements of a set not declared through us: " + b.group(1));
                }
                boolean add = verb.equals("add");
                var elements = Elements.encode(schema, b.group(2), add);
                if (add) {
                    batch.addElements(f, table, b.group(1), 0, elements);
                } else {
                    batch.deleteElements(f, table, b.group(1), elements);
                }
            }
            default -> throw new Unsupported(kind);
        }
        return s;
    }

    private static Schemas table(NfBatch batch, String verb, NfFamily f, String fam, String table, String rest, Schemas s) {
        switch (verb) {
            case "add" -> {
                byte[] ud = null;
                if (!rest.isEmpty()) {
                    Matcher c = COMMENT.matcher(rest);
                    if (!c.matches()) {
                        throw new Unsupported("table options " + rest);
                    }
                    ud = UserData.comment(c.group(1));
                }
                batch.addTable(f, table, ud);
            }
            case "delete" -> {
                batch.deleteTable(f, table);
                return s.withoutTable(fam, table);
            }
            default -> batch.flushTable(f, table);
        }
        return s;
    }

    private static void chain(NfBatch batch, String verb, NfFamily f, String table, String rest) {
        String[] nb = rest.split(" ", 2);
        String name = nb[0];
        switch (verb) {
            case "add" -> {
                NfHook hook = null;
                byte[] ud = null;
                if (nb.length == 2) {
                    Matcher h = HOOK.matcher(nb[1]);
                    Matcher c = COMMENT.matcher(nb[1]);
                    if (h.matches()) {
                        int num = switch (h.group(2)) {
                            case "prerouting" -> 0;
                            case "input" -> 1;
                            case "forward" -> 2;
                            case "output" -> 3;
                            default -> 4;
                        };
                        hook = new NfHook(h.group(1), num, Integer.parseInt(h.group(3)));
                    } else if (c.matches()) {
                        ud = UserData.comment(c.group(1));
                    } else {
                        throw new Unsupported("chain options " + nb[1]);
                    }
                }
                batch.addChain(f, table, name, hook, ud);
            }
            case "flush" -> batch.flushChain(f, table, name);
            default -> batch.deleteChain(f, table, name);
        }
    }

    private static Schemas set(NfBatch batch, String verb, NfFamily f, String fam, String table, String rest, Schemas s) {
        switch (verb) {
            case "add" -> {
                SetSchema schema = declaration(fam, rest);
                batch.addSet(f, table, schema.spec());
                return s.with(fam, table, schema.spec().name(), schema);
            }
            case "flush" -> batch.flushSet(f, table, rest.strip());
            default -> {
                batch.deleteSet(f, table, rest.strip());
                return s.without(fam, table, rest.strip());
            }
        }
        return s;
    }
}
