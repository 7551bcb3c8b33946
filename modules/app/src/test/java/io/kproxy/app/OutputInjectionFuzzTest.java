package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.NodeObserved;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.ServiceObserved;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.SyncFailed;
import io.kproxy.events.SyncKind;
import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.model.ServiceRef;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18, defect 4, as a property: fuzzed objects and records never produce output that parses
 * to more than intended. Seeded cases of {@link HostileObjects} go through (a) {@code render
 * --objects} in nftables and iptables, (b) a journal written with the real codec and then forged
 * to hold hostile resourceVersions ({@link ForgedJournal}), with hostile errors and pin reasons,
 * through {@code render --journal --offset} with and without {@code --explain}, and (c) {@code
 * diff} and {@code audit} over it. Checked structurally, never by eye:
 *
 * <ul>
 *   <li>A ruleset on standard output: every line is one statement of a strict grammar (nft:
 *       {@code add|flush|delete <object> ip|ip6|inet kube-proxy ...}, or a {@code #} comment
 *       line; iptables-restore: {@code *table}, {@code :CHAIN}, {@code -A ...}, {@code COMMIT}, a
 *       {@code #} comment), quotes balance on each line, and nothing outside the quotes of a
 *       statement holds the marker {@value HostileObjects#MARK} or a {@code #}. With
 *       {@code --explain}, the non-comment lines are exactly the plain rendering's: the same
 *       tables, chains, rules and elements, none more.</li>
 *   <li>Terminal text (standard error, diff, audit): no raw control, format or line separator
 *       character, and no line (split at LF, CR, U+0085, U+2028, U+2029) that starts with text
 *       the input put after a line break.</li>
 *   <li>No crash (exit 1, a stack trace), no hang (a run over 10 s).</li>
 * </ul>
 *
 * <p>{@code -Dkproxy.fuzz.cases=N} (default 40) and {@code -Dkproxy.fuzz.seed=S} (default fixed)
 * reproduce a run; the counts go to standard output (the surefire report's output file). The same
 * harness compiles against kproxy before issue 18, which is how docs/operations.md's before/after
 * counts were taken.
 */
class OutputInjectionFuzzTest {

    private static final Pattern NFT = Pattern.compile("(add|flush|delete|destroy|create|insert|replace) "
            + "(table|chain|set|map|rule|element|counter) (ip|ip6|inet) kube-proxy( .*)?");
    private static final Pattern IPT = Pattern.compile("\\*(filter|nat|mangle|raw|security)|:[A-Za-z0-9_-]+ (-|ACCEPT|DROP|RETURN) \\[\\d+:\\d+\\]"
            + "|-[AIDNXF] [A-Za-z0-9_-]+( .*)?|COMMIT");
    private static final Pattern QUOTED = Pattern.compile("\"[^\"]*\"");
    private static final Pattern RAW_CONTROL = Pattern.compile("[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]");
    private static final Pattern BREAK = Pattern.compile("\r\n|[\n\r\u0085\u2028\u2029]");
    private static final List<String> FORGED_STARTS = List.of(HostileObjects.MARK, "table inet PWN", "}", "COMMIT", "*filter", "-A INPUT");
    private static final Duration HANG = Duration.ofSeconds(10);

    private int runs;
    private int crashes;
    private int hangs;
    private int injectedRulesets;
    private int forgedTerminalLines;
    private int rawControlOutputs;
    private int refusedJournals;
    private int explained;
    private int diffed;
    private int audits;
    private final List<String> firstFindings = new ArrayList<>();
    private final Map<String, Integer> byOutput = new TreeMap<>();

    @Test
    void fuzzedObjectsAndRecordsNeverProduceMoreThanIntended(@TempDir Path tmp) throws IOException {
        int cases = Integer.getInteger("kproxy.fuzz.cases", 40);
        long seed = Long.getLong("kproxy.fuzz.seed", 18L);
        int objects = 0;
        for (int c = 0; c < cases; c++) {
            HostileObjects g = new HostileObjects(seed * 1_000_003L + c);
            List<Json.Obj> objs = g.objects();
            objects += objs.size();
            Path dir = Files.createDirectories(tmp.resolve("objects-" + c));
            for (int i = 0; i < objs.size(); i++) {
                Files.writeString(dir.resolve(String.format("%03d.json", i)), HostileObjects.json(objs.get(i)), StandardCharsets.UTF_8);
            }
            for (String mode : List.of("nftables", "iptables")) {
                RenderCommandTest.Run r = run(c, "render", "--objects", dir.toString(), "--node", HostileObjects.NODE, "--mode", mode);
                ruleset(c, "render --objects " + mode, mode, r.out());
                terminal(c, "render --objects stderr", r.err());
            }
            // Every other journal keeps its resourceVersions plain, so that its hostile errors and
            // reasons reach --explain, diff and audit even where forged records are refused.
            journalCase(c, g, objs, tmp.resolve("journal-" + c), c % 2 == 0);
        }
        String summary = String.format("output-injection fuzz: seed %d, %d cases, %d objects, %d runs: %d crashes, %d hangs, %d injected "
                + "rulesets, %d forged terminal lines, %d outputs with raw control characters; %d forged journals refused as damage; "
                + "%d explained renderings, %d diffs, %d audits answered", seed, cases, objects, runs, crashes, hangs, injectedRulesets,
                forgedTerminalLines, rawControlOutputs, refusedJournals, explained, diffed, audits);
        System.out.println(summary);
        System.out.println("findings by output: " + byOutput);
        assertThat(crashes + hangs + injectedRulesets + forgedTerminalLines + rawControlOutputs).as(summary + "\n" + String.join("\n",
                firstFindings)).isZero();
        assertThat(runs).isGreaterThan(cases * 6);
        assertThat(explained).as("the printers were reached: " + summary).isGreaterThanOrEqualTo(cases / 2);
        assertThat(diffed).as("the printers were reached: " + summary).isGreaterThanOrEqualTo(cases / 2);
    }

    private void journalCase(int c, HostileObjects g, List<Json.Obj> objs, Path dir, boolean forge) throws IOException {
        ForgedJournal j = new ForgedJournal();
        NodeName node = new NodeName(HostileObjects.NODE);
        j.add(new ConfigRecorded(node, Json.obj("mode", Json.of("nftables"), "clusterCIDR", Json.of("10.0.0.0/16"))));
        Optional<ServiceRef> audited = Optional.empty();
        for (Json.Obj o : objs) {
            Json.Obj meta = o.object("metadata");
            String rv = meta.string("resourceVersion").orElse("");
            if (!rv.matches("[0-9]*")) {
                rv = forge ? j.placeholder(rv) : "7";
                o = o.with("metadata", meta.with("resourceVersion", Json.of(rv)));
            }
            String ns = meta.string("namespace").orElse("");
            String name = meta.string("name").orElse("");
            try {
                ClusterEvent e = switch (o.string("kind").orElse("")) {
                    case "Service" -> new ServiceObserved(new ServiceRef(ns, name), rv, o);
                    case "EndpointSlice" -> new EndpointSliceObserved(new EndpointSliceRef(ns, name), rv, o);
                    default -> new NodeObserved(node, rv, o);
                };
                j.add(e);
                if (audited.isEmpty() && e instanceof ServiceObserved s) {
                    audited = Optional.of(s.service());
                }
            } catch (IllegalArgumentException e) {
                // A hostile name: no event can hold it, before issue 18 as after.
            }
        }
        for (ResourceKind k : ResourceKind.values()) {
            j.add(new SourceSynced(k, forge && g.chance(3) ? j.placeholder(g.hostileResourceVersion()) : "42"));
        }
        int synced = j.size();
        j.add(new SyncFailed("nftables", 1, synced - 1, SyncKind.FULL, g.hostile(), true, Duration.ZERO));
        j.add(new DataplanePinned(0, g.hostile()));
        j.add(new DataplaneUnpinned(g.hostile()));
        j.write(dir);
        String offset = Integer.toString(synced - 1);
        boolean refused = false;
        for (String mode : List.of("nftables", "iptables")) {
            RenderCommandTest.Run plain = run(c, "render", "--journal", dir.toString(), "--offset", offset, "--mode", mode);
            RenderCommandTest.Run explain = run(c, "render", "--journal", dir.toString(), "--offset", offset, "--mode", mode, "--explain");
            ruleset(c, "render --explain " + mode, mode, explain.out());
            terminal(c, "render --journal stderr", plain.err());
            terminal(c, "render --explain stderr", explain.err());
            if (plain.exit() == 0 && explain.exit() == 0 && !statements(explain.out()).equals(statements(plain.out()))) {
                injectedRulesets++;
                finding(c, "render --explain " + mode + ": its statements differ from the plain rendering's");
            }
            refused |= plain.exit() == HistoryExits.UNREADABLE;
            explained += explain.exit() == 0 ? 1 : 0;
        }
        refusedJournals += refused ? 1 : 0;
        RenderCommandTest.Run diff = run(c, "diff", "--journal", dir.toString(), "--from", ForgedJournal.FIRST.toString(), "--to",
                ForgedJournal.REST.toString(), "--desired", "--mode", "nftables");
        diffed += diff.exit() == 0 ? 1 : 0;
        terminal(c, "diff", diff.out());
        terminal(c, "diff stderr", diff.err());
        if (audited.isPresent()) {
            RenderCommandTest.Run audit = run(c, "audit", "--journal", dir.toString(), audited.get().toString());
            terminal(c, "audit", audit.out());
            audits += audit.exit() == 0 ? 1 : 0;
            terminal(c, "audit stderr", audit.err());
        }
    }

    private RenderCommandTest.Run run(int c, String... args) {
        long start = System.nanoTime();
        RenderCommandTest.Run r = RenderCommandTest.run(args);
        runs++;
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        if (took.compareTo(HANG) > 0) {
            hangs++;
            finding(c, String.join(" ", args[0], args.length > 1 ? args[1] : "") + ": took " + took);
        }
        if (r.exit() == HistoryExits.FAILED || r.err().contains("\tat ") || r.err().contains("Exception in")) {
            crashes++;
            finding(c, args[0] + ": exit " + r.exit() + ": " + r.err().lines().findFirst().orElse(""));
        }
        return r;
    }

    /** The statements of a ruleset text: its lines but comments and blank lines. */
    private static List<String> statements(String text) {
        return text.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
    }

    private void ruleset(int c, String what, String mode, String text) {
        rawControl(c, what, text);
        for (String line : text.split("\n", -1)) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            boolean grammar = (mode.equals("nftables") ? NFT : IPT).matcher(line).matches();
            String outside = QUOTED.matcher(line).replaceAll("\"\"");
            boolean quotes = outside.chars().filter(ch -> ch == '"').count() % 2 == 0;
            if (!grammar || !quotes || outside.contains(HostileObjects.MARK) || outside.contains("#")) {
                injectedRulesets++;
                finding(c, what + ": line not of the grammar or holding input outside quotes: " + shorten(line));
                return;
            }
        }
    }

    private void terminal(int c, String what, String text) {
        rawControl(c, what, text);
        String[] lines = BREAK.split(text, -1);
        for (int i = 1; i < lines.length; i++) {
            String l = lines[i];
            if (FORGED_STARTS.stream().anyMatch(l::startsWith)) {
                forgedTerminalLines++;
                finding(c, what + ": a line made by the input: " + shorten(l));
            }
        }
    }

    private void rawControl(int c, String what, String text) {
        if (RAW_CONTROL.matcher(text).find()) {
            rawControlOutputs++;
            finding(c, what + ": raw control character in the output");
        }
    }

    private void finding(int c, String text) {
        byOutput.merge(text.substring(0, text.indexOf(':')), 1, Integer::sum);
        if (firstFindings.size() < 12) {
            firstFindings.add("case " + c + ": " + text);
        }
    }

    private static String shorten(String s) {
        String t = s.length() > 140 ? s.substring(0, 140) + "..." : s;
        return t.replace("\u001b", "<ESC>");
    }
}
