package io.kproxy.backend.nftables.wire;

import io.kproxy.backend.nftables.Forked;
import io.kproxy.netlink.NfBatch;
import io.kproxy.netlink.NfFamily;
import io.kproxy.netlink.NfHook;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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

    private static final Pattern HOOK = Pattern.compile("^\\{ type (filter|nat) hook (prerouting|input|forward|output|postrouting) priority (-?\\d+) ; }$");
    private static final Pattern COMMENT = Pattern.compile("^\\{ comment \"([^\"]*)\" ; }$");

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

    /**
     * Compiles {@code text} against the declarations the kernel holds ({@code schemas}). With
     * {@code newSetsById} (the kernel finds new sets by id from the newest: Linux 6.12 and later),
     * elements added to a set that is new to the kernel (declared after its table or itself was
     * deleted in the same text, or anonymous) name it by the batch's set id alone
     * ({@link NfBatch#addElementsToNewSet}): by name, the kernel compares it with every set of the
     * table, for every element command, so a full apply's kernel time grows with elements times
     * sets (docs/benchmarks.md, "Agent end to end"). A set only declared again may already
     * exist, and keeps its name. From {@link #SPLIT_FROM_CHARS} characters, on a machine with a
     * second processor, on two threads ({@link #compile(String, Schemas, boolean, int)}).
     */
    public static Result compile(String text, Schemas schemas, boolean newSetsById) {
        return compile(text, schemas, newSetsById,
                text.length() >= SPLIT_FROM_CHARS && Runtime.getRuntime().availableProcessors() > 1 ? splitPoint(text) : -1);
    }

    /**
     * Text from which a transaction is compiled on two threads: about 1,200 Services' full sync
     * (a 10,000-Service full sync is 12 M characters and compiled in 1.9 s on one core).
     */
    public static final int SPLIT_FROM_CHARS = 1_500_000;

    /**
     * Where the helper's part starts: the start of the line at or after 51% of the text. The
     * helper first reads the caller's part for its declarations alone (skipping its elements,
     * chains and most rules: 0.3 s of a 100,000-Service full sync whose halves compile in about
     * 7 s each), so the caller takes a little more than half.
     */
    public static int splitPoint(String text) {
        int nl = text.indexOf('\n', (int) (text.length() * 0.51));
        return nl < 0 ? -1 : nl + 1;
    }

    /**
     * {@link #compile(String, Schemas, boolean)}, split at {@code at} (the start of a line, or -1:
     * not split): the caller compiles the lines before it, and a helper thread
     * ({@code kproxy-compile-helper}) the lines from it, into the tail of the same batch
     * ({@link NfBatch#splitOff}) after a pass over the caller's lines for what they declare and
     * delete (the schemas, the new sets, the set ids: {@link Head}). The batch, its bytes and its
     * line numbers are the ones the single-threaded compile makes (BatchCompilerSplitTest).
     */
    public static Result compile(String text, Schemas schemas, boolean newSetsById, int at) {
        // About 1.5 bytes of netlink per character of text (a 10,000-Service full sync: 13.9 M
        // characters, 21.3 MB of batch); a little more so that it rarely grows.
        NfBatch batch = new NfBatch(bytesFor(text.length()));
        if (at <= 0 || at >= text.length()) {
            Part all = compileLines(text, 0, text.length(), 0, batch, schemas, new NewSets(newSetsById));
            return all.result(batch);
        }
        NfBatch tail = batch.splitOff(bytesFor(at));
        Forked<Part> helper = Forked.start("kproxy-compile-helper", () -> {
            Head head = Head.read(text, at, schemas, newSetsById);
            if (head == null) {
                return null; // the caller's part does not compile: its error is the one reported
            }
            tail.startSetIdsAt(head.nextSetId());
            return compileLines(text, at, text.length(), head.lines(), tail, head.schemas(), head.fresh());
        });
        Part first = compileLines(text, 0, at, 0, batch, schemas, new NewSets(newSetsById));
        if (first.error() != null) {
            // The first error is the one reported; the helper finishes on its own into a batch no one reads.
            return first.result(batch);
        }
        Part second = helper.join();
        if (second == null) {
            throw new IllegalStateException("the lines before the split compiled, but reading their declarations failed");
        }
        if (second.error() != null) {
            return second.result(tail);
        }
        batch.append(tail);
        int[] lines = Arrays.copyOf(first.lines(), first.lines().length + second.lines().length);
        System.arraycopy(second.lines(), 0, lines, first.lines().length, second.lines().length);
        return new Result(Optional.of(new Compiled(batch, lines, second.schemas())), null);
    }

    private static int bytesFor(int chars) {
        return (int) Math.min(Integer.MAX_VALUE - 64, 4096 + chars * 8L / 5);
    }

    /** Lines compiled into a batch: the 1-based line of each operation, and the schemas after; or the first error. */
    private record Part(int[] lines, Schemas schemas, String error) {
        Result result(NfBatch batch) {
            return error != null ? new Result(Optional.empty(), error) : new Result(Optional.of(new Compiled(batch, lines, schemas)), null);
        }
    }

    /** Compiles the lines of {@code text[from, to)}, the first numbered {@code before + 1}, into {@code batch}. */
    private static Part compileLines(String text, int from, int to, int before, NfBatch batch, Schemas schemas, NewSets fresh) {
        int[] lines = new int[1024];
        int ops = 0;
        Schemas s = schemas;
        int number = before;
        int size0 = batch.size();
        while (from < to) {
            int end = text.indexOf('\n', from);
            if (end < 0 || end > to) {
                end = to;
            }
            String line = text.substring(from, end);
            from = end + 1;
            number++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            try {
                s = command(batch, Command.parse(line), s, fresh);
            } catch (Unsupported | IllegalArgumentException e) {
                return new Part(null, null, "line " + number + ": " + e.getMessage());
            }
            int size = batch.size() - size0;
            if (size > lines.length) {
                lines = Arrays.copyOf(lines, Math.max(size, lines.length * 2));
            }
            while (ops < size) {
                lines[ops++] = number;
            }
        }
        return new Part(Arrays.copyOf(lines, ops), s, null);
    }

    /**
     * What the lines before a split leave for the lines after it: the schemas, the sets new to
     * the kernel, the next set id, and how many lines they are. Only tables, sets, maps and rules
     * with an anonymous set ({@code {}) change any of it, and only those are compiled (into a
     * scratch batch); elements, added chains and the other rules are skipped.
     */
    private record Head(Schemas schemas, NewSets fresh, int nextSetId, int lines) {

        /** The head of {@code text[0, at)}, or null when a line of it does not compile. */
        static Head read(String text, int at, Schemas schemas, boolean newSetsById) {
            Schemas s = schemas;
            NewSets fresh = new NewSets(newSetsById);
            // The lines that can change it go through the compile itself, into a batch no one
            // sends: its set ids are the ones the caller's batch gives the same lines.
            NfBatch scratch = new NfBatch();
            int number = 0;
            for (int from = 0; from < at;) {
                int end = text.indexOf('\n', from);
                if (end < 0 || end > at) {
                    end = at;
                }
                number++;
                int start = from;
                from = end + 1;
                if (text.startsWith("add element ", start) || text.startsWith("delete element ", start)
                        || text.startsWith("add chain ", start) || text.startsWith("add rule ", start) && !has(text, '{', start, end)) {
                    continue;
                }
                String line = text.substring(start, end);
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                try {
                    s = command(scratch, Command.parse(line), s, fresh);
                } catch (Unsupported | IllegalArgumentException e) {
                    return null;
                }
            }
            return new Head(s, fresh, scratch.nextSetId(), number);
        }

        private static boolean has(String text, char c, int from, int to) {
            for (int i = from; i < to; i++) {
                if (text.charAt(i) == c) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * One line of the grammar: {@code <verb> <kind> <ip|ip6> <table>[ <rest>]}, read by hand (a
     * regular expression over a line of several kilobytes of elements cost more than compiling
     * the line).
     */
    private record Command(String verb, String kind, String fam, String table, String rest) {

        private static final List<String> VERBS = List.of("add", "delete", "flush");
        private static final List<String> KINDS = List.of("table", "chain", "set", "map", "rule", "element");

        static Command parse(String line) {
            if (line.indexOf('\r') >= 0 || line.indexOf('\u0085') >= 0 || line.indexOf('\u2028') >= 0 || line.indexOf('\u2029') >= 0) {
                throw new Unsupported("command " + line);
            }
            int a = line.indexOf(' ');
            int b = a < 0 ? -1 : line.indexOf(' ', a + 1);
            int c = b < 0 ? -1 : line.indexOf(' ', b + 1);
            if (c < 0) {
                throw new Unsupported("command " + line);
            }
            String verb = line.substring(0, a);
            String kind = line.substring(a + 1, b);
            String fam = line.substring(b + 1, c);
            int d = line.indexOf(' ', c + 1);
            String table = line.substring(c + 1, d < 0 ? line.length() : d);
            if (!VERBS.contains(verb) || !KINDS.contains(kind) || !fam.equals("ip") && !fam.equals("ip6") || !word(table)) {
                throw new Unsupported("command " + line);
            }
            // Interned: the batch keeps the table of each of its hundred thousand operations.
            return new Command(verb, kind, fam, table.intern(), d < 0 ? "" : line.substring(d + 1));
        }
    }

    /** {@code <name> { <inside> }}: the name and the inside, or null when {@code rest} is not of that form. */
    private static String[] body(String rest) {
        int space = rest.indexOf(' ');
        if (space <= 0 || !rest.endsWith(" }") || rest.length() < space + 5 || !rest.startsWith(" { ", space)) {
            return null;
        }
        String name = rest.substring(0, space);
        return word(name) ? new String[] {name, rest.substring(space + 3, rest.length() - 2)} : null;
    }

    /** Non-empty, without white space (the grammar's {@code \\S+}). */
    private static boolean word(String w) {
        if (w.isEmpty()) {
            return false;
        }
        for (int i = 0; i < w.length(); i++) {
            if (Character.isWhitespace(w.charAt(i))) {
                return false;
            }
        }
        return true;
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
            Command m;
            try {
                m = Command.parse(line);
            } catch (Unsupported e) {
                return Schemas.empty();
            }
            String verb = m.verb();
            String kind = m.kind();
            String fam = m.fam();
            String table = m.table();
            String rest = m.rest();
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
        String[] b = body(rest);
        if (b == null) {
            throw new Unsupported("set declaration " + rest);
        }
        return SetSchema.parse(b[0], fam.equals("ip6"), b[1]);
    }

    /**
     * The sets of this batch that are new to the kernel (by {@code "<family> <table> <name>"}), and
     * which way the kernel finds each one faster when elements are added to it. By name it walks
     * the table's sets from the oldest; by id it walks the transaction's new sets from the newest.
     * So a service's map, declared just before its elements, is named by id, and a shared map
     * declared at the start of the table is named by name (by id, each of ten thousand services'
     * elements in it would walk back over every map declared since).
     */
    private static final class NewSets {

        private record Declared(int id, int order, int inTable) {
        }

        private final boolean byId;
        private final Set<String> deletedTables = new HashSet<>();
        private final Set<String> deletedSets = new HashSet<>();
        private final Map<String, Declared> fresh = new HashMap<>();
        private final Map<String, Integer> inTable = new HashMap<>();
        private int declared;

        NewSets(boolean byId) {
            this.byId = byId;
        }

        void tableDeleted(String fam, String table) {
            deletedTables.add(fam + " " + table);
            inTable.remove(fam + " " + table);
            String prefix = fam + " " + table + " ";
            fresh.keySet().removeIf(k -> k.startsWith(prefix));
        }

        void setDeleted(String fam, String table, String name) {
            String key = fam + " " + table + " " + name;
            deletedSets.add(key);
            fresh.remove(key);
        }

        /**
         * A set declared with batch id {@code id} (an anonymous one too: every declaration is a
         * step of the kernel's walk by id); remembered when it cannot exist in the kernel yet.
         */
        void declared(String fam, String table, String name, int id) {
            String t = fam + " " + table;
            String key = t + " " + name;
            int before = inTable.merge(t, 1, Integer::sum) - 1;
            if (byId && !fresh.containsKey(key) && (deletedTables.contains(t) || deletedSets.contains(key))) {
                fresh.put(key, new Declared(id, declared, before));
            }
            declared++;
        }

        /** The batch id to name the set by, or 0 to name it by its name. */
        int id(String fam, String table, String name) {
            Declared d = byId ? fresh.get(fam + " " + table + " " + name) : null;
            return d != null && declared - d.order() - 1 < d.inTable() ? d.id() : 0;
        }
    }

    private static Schemas command(NfBatch batch, Command m, Schemas s, NewSets fresh) {
        String verb = m.verb();
        String kind = m.kind();
        String fam = m.fam();
        NfFamily f = fam.equals("ip6") ? NfFamily.IPV6 : NfFamily.IPV4;
        String table = m.table();
        String rest = m.rest();
        switch (kind) {
            case "table" -> {
                return table(batch, verb, f, fam, table, rest, s, fresh);
            }
            case "chain" -> chain(batch, verb, f, table, rest);
            case "set", "map" -> {
                return set(batch, verb, f, fam, table, rest, s, fresh);
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
                    fresh.declared(fam, table, a.spec().name(), ids[i]);
                    if (fresh.byId) {
                        batch.addElementsToNewSet(f, table, a.spec().name(), ids[i], a.elements());
                    } else {
                        batch.addElements(f, table, a.spec().name(), ids[i], a.elements());
                    }
                }
                batch.addRule(f, table, cr[0], r.resolve(ids), r.userdata());
            }
            case "element" -> {
                String[] b = body(rest);
                if (b == null || verb.equals("flush")) {
                    throw new Unsupported("element command " + verb + " " + kind + " " + fam + " " + table + " " + rest);
                }
                SetSchema schema = s.get(fam, table, b[0]);
                if (schema == null) {
                    throw new Unsupported("elements of a set not declared through us: " + b[0]);
                }
                boolean add = verb.equals("add");
                var elements = Elements.encode(schema, b[1], add);
                int id = fresh.id(fam, table, b[0]);
                if (add && id != 0) {
                    batch.addElementsToNewSet(f, table, b[0], id, elements);
                } else if (add) {
                    batch.addElements(f, table, b[0], 0, elements);
                } else {
                    batch.deleteElements(f, table, b[0], elements);
                }
            }
            default -> throw new Unsupported(kind);
        }
        return s;
    }

    private static Schemas table(NfBatch batch, String verb, NfFamily f, String fam, String table, String rest, Schemas s,
            NewSets fresh) {
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
                fresh.tableDeleted(fam, table);
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

    private static Schemas set(NfBatch batch, String verb, NfFamily f, String fam, String table, String rest, Schemas s,
            NewSets fresh) {
        switch (verb) {
            case "add" -> {
                SetSchema schema = declaration(fam, rest);
                int id = batch.addSet(f, table, schema.spec());
                fresh.declared(fam, table, schema.spec().name(), id);
                return s.with(fam, table, schema.spec().name(), schema);
            }
            case "flush" -> batch.flushSet(f, table, rest.strip());
            default -> {
                batch.deleteSet(f, table, rest.strip());
                fresh.setDeleted(fam, table, rest.strip());
                return s.without(fam, table, rest.strip());
            }
        }
        return s;
    }
}
