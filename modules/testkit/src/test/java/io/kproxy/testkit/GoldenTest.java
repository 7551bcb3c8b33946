package io.kproxy.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

class GoldenTest {

    @TempDir
    Path root;

    @Test
    void normalisesLineEndingsTrailingBlanksAndTheFinalNewline() {
        assertThat(Golden.normalise("a  \r\nb\t\r\n\r\n\r\n")).isEqualTo("a\nb\n");
        assertThat(Golden.normalise("a\nb")).isEqualTo("a\nb\n");
        assertThat(Golden.normalise("")).isEmpty();
        assertThat(Golden.normalise("\n\n  \n")).isEmpty();
        assertThat(Golden.normalise("  lead kept\n")).isEqualTo("  lead kept\n");
        assertThat(Golden.normalise("a\n\nb\n")).as("inner blank lines stay").isEqualTo("a\n\nb\n");
    }

    @Test
    void matchesAfterNormalisingBothSides() throws IOException {
        Files.writeString(root.resolve("x.txt"), "one\r\ntwo   \n\n");
        assertThatCode(() -> Golden.assertMatches(root, "x.txt", "one\ntwo", UnaryOperator.identity(), false)).doesNotThrowAnyException();
    }

    @Test
    void mismatchFailsWithADiffAndBothSides() throws IOException {
        StringBuilder golden = new StringBuilder();
        for (int i = 1; i <= 20; i++) {
            golden.append("l").append(i).append('\n');
        }
        String actual = golden.toString().replace("l5\n", "L5\n") + "l21\n";
        Files.writeString(root.resolve("r.txt"), golden.toString());
        assertThatThrownBy(() -> Golden.assertMatches(root, "r.txt", actual, UnaryOperator.identity(), false))
                .isInstanceOfSatisfying(AssertionFailedError.class, e -> {
                    assertThat(e.getMessage()).startsWith("output differs from golden file " + root.resolve("r.txt") + " (- golden, + actual):\n");
                    String diff = e.getMessage().substring(e.getMessage().indexOf('\n') + 1);
                    assertThat(diff).contains("- l5\n").contains("+ L5\n").contains("+ l21\n");
                    assertThat(diff).as("three lines of context").contains("  l2\n").contains("  l8\n").doesNotContain("  l1\n")
                            .doesNotContain("  l12\n");
                    assertThat(diff).as("a gap between hunks").contains("...\n");
                    assertThat(e.getExpected().getStringRepresentation()).isEqualTo(golden.toString());
                    assertThat(e.getActual().getStringRepresentation()).isEqualTo(actual);
                });
    }

    @Test
    void missingFileSaysHowToCreateItAndShowsTheOutput() {
        assertThatThrownBy(() -> Golden.assertMatches(root, "nft/none.nft", "table ip kube-proxy {}\n", UnaryOperator.identity(), false))
                .isInstanceOf(AssertionFailedError.class)
                .hasMessage("golden file " + root.resolve("nft/none.nft") + " is missing; run with -Dgolden.update=true to create it. Actual:\n"
                        + "table ip kube-proxy {}\n");
    }

    @Test
    void updateWritesTheNormalisedOutputAndThenMatches() throws IOException {
        Golden.assertMatches(root, "deep/dir/new.txt", "x  \r\ny", UnaryOperator.identity(), true);
        assertThat(Files.readString(root.resolve("deep/dir/new.txt"))).isEqualTo("x\ny\n");
        assertThatCode(() -> Golden.assertMatches(root, "deep/dir/new.txt", "x\ny\n", UnaryOperator.identity(), false))
                .doesNotThrowAnyException();
    }

    @Test
    void theNormaliserAppliesToBothSides() throws IOException {
        Files.writeString(root.resolve("h.txt"), "chain service-ABCD1234-ns/svc\n");
        UnaryOperator<String> maskHashes = s -> s.replaceAll("service-[A-Z0-9]{8}", "service-HASH");
        assertThatCode(() -> Golden.assertMatches(root, "h.txt", "chain service-ZZZZ9999-ns/svc\n", maskHashes, false))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> Golden.assertMatches(root, "h.txt", "chain service-ZZZZ9999-ns/svc\n", UnaryOperator.identity(), false))
                .isInstanceOf(AssertionFailedError.class);
    }

    @Test
    void hugeInputsReportTheFirstDifferenceInsteadOfAQuadraticDiff() {
        String a = "same\n".repeat(3000) + "old\n";
        String b = "same\n".repeat(3000) + "new\n";
        String d = Golden.diff(a, b);
        assertThat(d).startsWith("first difference at line 3001:\n").contains("- old\n").contains("+ new\n");
    }

    @Test
    void theRealRootIsTheModulesTestResources() {
        assertThatCode(() -> Golden.assertMatches("testkit/sample.txt", "line one\nline two")).doesNotThrowAnyException();
        assertThat(Golden.read("testkit/sample.txt")).isEqualTo("line one\nline two\n");
    }
}
