package io.kproxy.backend.nftables;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.Transaction;
import io.kproxy.backend.nftables.wire.BatchCompiler;
import io.kproxy.backend.nftables.wire.Schemas;
import io.kproxy.testkit.Golden;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A transaction compiled on two threads, split at any line, is the batch the single-threaded
 * compile makes: the same messages (set ids included), the same line of each operation, the same
 * schemas after, and the same error for a line it does not know.
 */
class BatchCompilerSplitTest {

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("io.kproxy.backend.testkit.IncrementalProperty#seeds")
    void everyTransactionOfARandomHistorySplitAnywhereIsTheSameBatch(long seed) {
        Random random = new Random(seed);
        Schemas schemas = Schemas.empty();
        for (Transaction tx : RandomTransactions.of(seed, 12, 12, 6)) {
            if (!tx.isEmpty()) {
                schemas = sameSplitAnywhere(tx.text(), schemas, random);
            }
        }
        assertThat(schemas.size()).isPositive();
    }

    @Test
    void tablesAndSetsDeletedAndDeclaredAgainAndAnonymousSetsOnEitherSide() {
        // Every way the caller's lines change what the helper's lines compile against: a table
        // deleted (its sets forgotten, its new sets named by id), a set deleted and declared
        // again (a new id), anonymous sets in rules (ids too), and a comment with a brace.
        String text = """
                add table ip t
                add map ip t shared { type ipv4_addr : verdict ; }
                delete table ip t
                add table ip t
                add map ip t shared { type ipv4_addr : verdict ; }
                add set ip t s { type ipv4_addr ; }
                add chain ip t c
                add rule ip t c ip saddr != { 10.0.0.0/8, 192.168.0.0/16 } drop
                add rule ip t c ip daddr 10.0.0.9 drop comment "a { brace"
                add map ip t m { type ipv4_addr : verdict ; }
                delete map ip t m
                add map ip t m { type ipv4_addr : verdict ; }
                # a comment line
                add element ip t m { 10.0.0.1 : goto c }
                add element ip t shared { 10.0.0.2 : goto c }

                add rule ip t c ip saddr { 10.1.0.0/16 } drop
                add element ip t s { 10.0.0.3 }
                delete set ip t s
                add set ip t s { type ipv4_addr ; }
                add element ip t s { 10.0.0.4 }
                delete element ip t shared { 10.0.0.2 }
                add table ip6 t
                add set ip6 t s6 { type ipv6_addr ; }
                add element ip6 t s6 { fd00::1 }
                """;
        // An anonymous set between a new set's declaration and its elements makes the kernel's
        // walk by id one longer: here long enough for b to be named by name instead.
        String walk = """
                add table ip t
                delete table ip t
                add table ip t
                add map ip t a { type ipv4_addr : verdict ; }
                add map ip t b { type ipv4_addr : verdict ; }
                add chain ip t c
                add rule ip t c ip saddr { 10.1.0.0/16, 10.2.0.0/16 } drop
                add element ip t b { 10.0.0.1 : goto c }
                """;
        Random random = new Random(1);
        sameSplitAnywhere(walk, Schemas.empty(), random);
        sameSplitAnywhere(text, Schemas.empty(), random);
        sameSplitAnywhere(text.strip(), Schemas.empty(), random);
        sameSplitAnywhere(Golden.read("nftables/features.nft"), Schemas.empty(), random);
    }

    @Test
    void anUnknownLineOnEitherSideIsReportedAsTheSingleThreadedCompileReportsIt() {
        String text = "add table ip t\nadd chain ip t c\nadd rule ip t c counter\nadd set ip t s { type ipv4_addr ; }\n"
                + "add element ip t s { 10.0.0.1 }\nadd element ip t x { 10.0.0.2 }\nadd chain ip t d\n";
        for (int at : lineStarts(text)) {
            for (boolean byId : new boolean[] {false, true}) {
                BatchCompiler.Result split = BatchCompiler.compile(text, Schemas.empty(), byId, at);
                assertThat(split.compiled()).isEmpty();
                assertThat(split.unsupported()).as("split at %d", at).startsWith("line 3: statement counter");
            }
        }
        String tailOnly = text.replace("add rule ip t c counter\n", "");
        for (int at : lineStarts(tailOnly)) {
            assertThat(BatchCompiler.compile(tailOnly, Schemas.empty(), true, at).unsupported()).as("split at %d", at)
                    .isEqualTo(BatchCompiler.compile(tailOnly, Schemas.empty(), true, -1).unsupported())
                    .contains("line 5: ").contains("not declared through us");
        }
    }

    @Test
    void aLargeTransactionSplitsAtALineStartPastHalf() {
        String line = "add element ip t s { 10.0.0.1 }\n";
        String text = line.repeat(BatchCompiler.SPLIT_FROM_CHARS / line.length() + 1);
        int at = BatchCompiler.splitPoint(text);
        assertThat(at).isGreaterThan(text.length() / 2).isLessThan(text.length());
        assertThat(text.charAt(at - 1)).isEqualTo('\n');
    }

    /**
     * Compiles {@code text} whole and split at up to 25 line starts (all of them in a short text,
     * the first and last ones and a random sample in a long one), with and without naming new
     * sets by id, and asserts that every split gives the whole compile's batch. Returns the schemas after.
     */
    private static Schemas sameSplitAnywhere(String text, Schemas before, Random random) {
        List<Integer> starts = lineStarts(text);
        List<Integer> at = new ArrayList<>();
        if (starts.size() <= 25) {
            at.addAll(starts);
        } else {
            at.addAll(List.of(starts.get(0), starts.get(1), starts.get(starts.size() - 1)));
            for (int i = 0; i < 22; i++) {
                at.add(starts.get(random.nextInt(starts.size())));
            }
        }
        Schemas after = null;
        for (boolean byId : new boolean[] {false, true}) {
            BatchCompiler.Result whole = BatchCompiler.compile(text, before, byId, -1);
            assertThat(whole.compiled()).as(whole.unsupported()).isPresent();
            BatchCompiler.Compiled w = whole.compiled().get();
            String dump = w.batch().dump();
            for (int a : at) {
                BatchCompiler.Compiled s = BatchCompiler.compile(text, before, byId, a).compiled().orElseThrow();
                assertThat(s.batch().size()).as("split at %d", a).isEqualTo(w.batch().size());
                assertThat(s.batch().nextSetId()).as("split at %d", a).isEqualTo(w.batch().nextSetId());
                assertThat(s.lineOfOperation()).as("split at %d", a).isEqualTo(w.lineOfOperation());
                assertThat(s.after()).as("split at %d", a).isEqualTo(w.after());
                assertThat(s.batch().dump()).as("split at %d of %d", a, text.length()).isEqualTo(dump);
            }
            after = w.after();
        }
        return after;
    }

    /** The offset of every line after the first (a split at 0 is no split). */
    private static List<Integer> lineStarts(String text) {
        List<Integer> starts = new ArrayList<>();
        for (int i = text.indexOf('\n'); i >= 0 && i + 1 < text.length(); i = text.indexOf('\n', i + 1)) {
            starts.add(i + 1);
        }
        return starts;
    }
}
