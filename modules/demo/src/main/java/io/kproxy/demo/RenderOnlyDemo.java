package io.kproxy.demo;

import io.kproxy.events.Envelope;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The demo without a kernel (not root, or no network namespaces): the history's timeline, and the
 * rulesets the node had just before and just after the change that breaks the probed Service, as
 * the lines that differ: what a rollback would put back. The rulesets are what {@code kproxy render
 * --journal DIR --offset N} prints: the time-travel library ({@link io.kproxy.history.History})
 * rebuilds each state from the recorded journal (nearest snapshot plus replay) and renders it with
 * the history's backend. Nothing is programmed. Reads the journal; otherwise pure apart from
 * printing.
 */
final class RenderOnlyDemo {

    /** At most this many differing lines are printed. */
    private static final int MAX_LINES = 80;

    private RenderOnlyDemo() {
    }

    /** Shows {@code history}, read from the journal in {@code dir}, with the rulesets of {@code mode} (the recorded one, or another). */
    static int run(Path dir, History history, String mode, Console out) {
        List<Envelope> records = history.records();
        out.line("Timeline of " + records.size() + " records, " + Console.time(history.start()) + " to " + Console.time(history.end())
                + " (offsets of the recorded journal; its engine's sync records are left out):");
        Narration story = new Narration(history);
        for (int i = 0; i < records.size(); i++) {
            long offset = history.originalOffset(i);
            story.tell(i, records.get(i), () -> offset, out);
        }
        out.line("");
        Optional<History.Episode> bad = history.predictedBreak();
        if (bad.isEmpty()) {
            out.problem(history.target().service() + " never loses its endpoints on port " + history.target().goodPorts()
                    + " in this history: there is no bad change to show (choose a Service with --service)");
            return 1;
        }
        History.Change b = bad.get().start();
        History.Change broken = bad.get().broken();
        // The engine's own records left out of the replay change no node state (a pin only chooses
        // what the engine programs), so the state after the n-th replayed record is the recorded
        // journal's state at that record's original offset.
        String was;
        String is;
        try (io.kproxy.history.History recorded = io.kproxy.history.History.open(dir)) {
            was = recorded.render(recorded.atOffset(history.originalOffset(b.index() - 1)), Optional.of(mode)).text();
            is = recorded.render(recorded.atOffset(history.originalOffset(broken.index())), Optional.of(mode)).text();
        }
        out.line("The bad change, #" + history.originalOffset(b.index()) + " at " + Console.time(b.at()) + ": " + b.summary());
        if (broken.index() != b.index()) {
            out.line("and then, #" + history.originalOffset(broken.index()) + " at " + Console.time(broken.at()) + ": " + broken.summary());
        }
        out.line("Before it:   " + bad.get().lastGood().summary());
        out.line("What it changed in the " + mode + " ruleset ('-' before, '+' after):");
        List<String> diff = diff(was, is);
        diff.stream().limit(MAX_LINES).forEach(l -> out.line("  " + l));
        if (diff.size() > MAX_LINES) {
            out.line("  ... " + (diff.size() - MAX_LINES) + " more lines");
        }
        out.line("");
        out.line("On a node, 'kproxy rollback --to " + b.at().minusMillis(1) + "' would program the '-' lines again while the journal "
                + "keeps recording; 'kproxy resume' would return to the '+' lines (the live state). Run the demo as root to see it "
                + "with real connections.");
        return 0;
    }

    /** The lines only in {@code a} ('-') and only in {@code b} ('+'), each in its text's order, counted as multisets. */
    static List<String> diff(String a, String b) {
        Map<String, Integer> inB = counts(b);
        Map<String, Integer> inA = counts(a);
        List<String> out = new ArrayList<>();
        for (String l : a.split("\n")) {
            if (inB.merge(l, -1, Integer::sum) < 0) {
                out.add("- " + l);
            }
        }
        for (String l : b.split("\n")) {
            if (inA.merge(l, -1, Integer::sum) < 0) {
                out.add("+ " + l);
            }
        }
        return out;
    }

    private static Map<String, Integer> counts(String text) {
        Map<String, Integer> m = new HashMap<>();
        for (String l : text.split("\n")) {
            m.merge(l, 1, Integer::sum);
        }
        return m;
    }
}
