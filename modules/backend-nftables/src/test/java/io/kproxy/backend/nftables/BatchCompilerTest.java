package io.kproxy.backend.nftables;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.Transaction;
import io.kproxy.backend.nftables.wire.BatchCompiler;
import io.kproxy.backend.nftables.wire.Schemas;
import io.kproxy.testkit.Golden;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The netlink compiler expresses every transaction the diff writes (so none falls back to
 * libnftables), pins the batch of a golden ruleset, and refuses what it does not know.
 */
class BatchCompilerTest {

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("io.kproxy.backend.testkit.IncrementalProperty#seeds")
    void everyTransactionOfARandomHistoryCompiles(long seed) {
        Schemas schemas = Schemas.empty();
        int step = -1;
        for (Transaction tx : RandomTransactions.of(seed, 20, 25, 8)) {
            schemas = compiled(tx, schemas, seed, step++);
        }
        assertThat(schemas.size()).isPositive();
    }

    private static Schemas compiled(Transaction tx, Schemas before, long seed, int step) {
        if (tx.isEmpty()) {
            return before;
        }
        BatchCompiler.Result r = BatchCompiler.compile(tx.text(), before, seed % 2 == 0);
        assertThat(r.compiled()).as("seed %d step %d: %s", seed, step, r.unsupported()).isPresent();
        BatchCompiler.Compiled c = r.compiled().get();
        assertThat(c.lineOfOperation()).hasSize(c.batch().size());
        // The same declarations as libnftables' path would remember.
        assertThat(BatchCompiler.track(tx.text(), before).size()).isEqualTo(c.after().size());
        return c.after();
    }

    @Test
    void theBatchOfTheFeatureRuleset() {
        String text = Golden.read("nftables/features.nft");
        BatchCompiler.Compiled c = BatchCompiler.compile(text, Schemas.empty(), false).compiled().orElseThrow();
        // Reviewed against nft 1.0.6's own batch for the same text (nft -c --debug=mnl): equal but
        // for attribute order, set ids, and nft sending the elements of an interval map twice.
        Golden.assertMatches("netlink/features.batch", c.batch().dump());
    }

    @Test
    void anonymousSetsBelongToTheLineOfTheirRule() {
        String text = """
                add table ip t
                add chain ip t c
                add rule ip t c ip saddr != { 10.0.0.0/8, 192.168.0.0/16 } drop
                add rule ip t c ip saddr != { 10.0.0.0/8 } drop
                """;
        BatchCompiler.Compiled c = BatchCompiler.compile(text, Schemas.empty(), false).compiled().orElseThrow();
        // Table, chain, the set and its elements and the rule, then a plain prefix comparison.
        assertThat(Arrays.stream(c.lineOfOperation()).boxed().toList()).containsExactly(1, 2, 3, 3, 3, 4);
        assertThat(c.batch().describe(2)).isEqualTo("NEWSET ip t __set%d");
    }

    @Test
    void elementsNameASetNewToTheKernelByItsBatchIdWhenThatWalkIsShorter() {
        String decl = """
                add map ip t shared { type ipv4_addr : verdict ; }
                add map ip t m { type ipv4_addr : verdict ; }
                add chain ip t c
                add element ip t m { 10.0.0.1 : goto c }
                """;
        // The table deleted first: m is new, declared last and after one other set, so its
        // elements name it by id (2) alone.
        assertThat(elementMessage("add table ip t\ndelete table ip t\nadd table ip t\n" + decl, true))
                .contains(" fam=2 1=7400 4=00000002 3{");
        // The same text on a kernel that walks the whole transaction for an id: by name.
        assertThat(elementMessage("add table ip t\ndelete table ip t\nadd table ip t\n" + decl, false))
                .contains(" fam=2 1=7400 2=6d00 3{");
        // The first set of the table, with a set declared after it: its name is found first.
        assertThat(elementMessage("add table ip t\ndelete table ip t\nadd table ip t\n" + decl + "add element ip t shared { 10.0.0.2 : goto c }\n",
                true)).contains(" fam=2 1=7400 2=73686172656400 3{");
        // Only declared again (a take-over, a full rewrite): it may exist already, so by name.
        assertThat(elementMessage("add table ip t\nflush table ip t\n" + decl, true)).contains(" fam=2 1=7400 2=6d00 3{");
        // Deleted and declared again in the same text: new, with its second declaration's id.
        assertThat(elementMessage("add table ip t\nadd map ip t m { type ipv4_addr : verdict ; }\ndelete map ip t m\n" + decl, true))
                .contains(" fam=2 1=7400 4=00000003 3{");
    }

    /** The dump of the last element message of {@code text}'s batch. */
    private static String elementMessage(String text, boolean newSetsById) {
        String dump = BatchCompiler.compile(text, Schemas.empty(), newSetsById).compiled().orElseThrow().batch().dump();
        return Arrays.stream(dump.split("\n")).filter(l -> l.startsWith("type=2572 ")).reduce((a, b) -> b).orElseThrow();
    }

    @Test
    void whatItDoesNotKnowFallsBack() {
        assertThat(BatchCompiler.compile("add table ip t\nadd chain ip t c\nadd rule ip t c counter\n", Schemas.empty(), false).unsupported())
                .startsWith("line 3: statement counter");
        assertThat(BatchCompiler.compile("add element ip t s { 10.0.0.1 }\n", Schemas.empty(), false).unsupported())
                .contains("not declared through us");
        assertThat(BatchCompiler.compile("list ruleset\n", Schemas.empty(), false).compiled()).isEmpty();
        assertThat(BatchCompiler.compile("add set ip t s { type ether_addr ; }\n", Schemas.empty(), false).compiled()).isEmpty();
    }

    @Test
    void declarationsAreRememberedWhicheverWayTheyWereApplied() {
        Schemas s = BatchCompiler.track("add table ip t\nadd set ip t s { type ipv4_addr ; }\nadd set ip t x { type ether_addr ; }\n", Schemas.empty());
        assertThat(s.size()).isEqualTo(1);
        assertThat(BatchCompiler.compile("add element ip t s { 10.0.0.1 }\n", s, false).compiled()).isPresent();
        assertThat(BatchCompiler.compile("add element ip t x { 0:1:2:3:4:5 }\n", s, false).compiled()).isEmpty();
        assertThat(BatchCompiler.track("delete table ip t\n", s).size()).isZero();
        assertThat(BatchCompiler.track("this is not nft\n", s).size()).isZero();
    }
}
