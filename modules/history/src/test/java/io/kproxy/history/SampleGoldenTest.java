package io.kproxy.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.model.ServiceRef;
import io.kproxy.testkit.Golden;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code diff} and {@code audit} on the committed sample, against golden files
 * (src/test/resources/golden/diff, golden/audit): the bad edit of shop/checkout, the API-server
 * outage and its relist, and the fix. Run with {@code -Dgolden.update=true} to rewrite them after
 * an intended change, and review the diff.
 */
class SampleGoldenTest {

    private static History history;

    @BeforeAll
    static void open() {
        history = History.open(Samples.CLUSTER_HOUR);
    }

    @AfterAll
    static void close() {
        history.close();
    }

    private static Instant t(String hms) {
        return Instant.parse("2026-11-22T" + hms + "Z");
    }

    @Test
    void diffAcrossTheBadEditShowsCheckoutMovingToPort8081AndTheEditThatCausedIt() {
        String out = history.diff(history.at(t("03:10:00")), history.at(t("03:15:00")), Optional.empty());
        Golden.assertMatches("diff/bad-edit-0310-0315.txt", out);
        assertThat(out).contains("== shop/checkout", "#853 2026-11-22T03:12:04.500Z ServiceObserved shop/checkout", ". 8081");
    }

    @Test
    void diffAcrossTheOutageShowsWhatTheRelistRemoved() {
        String out = history.diff(history.at(t("03:29:00")), history.at(t("03:36:00")), Optional.empty());
        Golden.assertMatches("diff/outage-0329-0336.txt", out);
        assertThat(out).contains("== legacy/old-api", "SourceRelisted Services");
    }

    @Test
    void diffOfTheFixInIptablesModeShowsTheSectionOfEachRule() {
        String out = history.diff(history.at(t("03:47:00")), history.at(t("03:48:00")), Optional.of("iptables"));
        Golden.assertMatches("diff/fix-0347-0348-iptables.txt", out);
        assertThat(out).contains("[IPv4 nat] -A KUBE-SEP-");
    }

    @Test
    void auditOfCheckoutTellsTheWholeStory() {
        String out = history.audit(new ServiceRef("shop", "checkout"), Optional.empty());
        Golden.assertMatches("audit/shop-checkout.txt", out);
        assertThat(out).contains("10.0.1.11:8081, 10.0.1.12:8081", "reached the kernel at 2026-11-22T03:12:06.004Z");
    }

    @Test
    void auditOfAServiceDeletedDuringTheOutageEndsWithTheRelist() {
        String out = history.audit(new ServiceRef("legacy", "old-api"), Optional.empty());
        Golden.assertMatches("audit/legacy-old-api.txt", out);
        assertThat(out).contains("SourceRelisted Services", "no rules: the Service is gone");
    }

    @Test
    void auditSinceATimeStartsFromTheStateThen() {
        String out = history.audit(new ServiceRef("team-c", "export"), Optional.of(t("03:30:00")));
        Golden.assertMatches("audit/team-c-export-since-0330.txt", out);
        assertThat(out).startsWith("kproxy audit team-c/export").contains("since 2026-11-22T03:30:00.000Z: Service #");
    }
}
