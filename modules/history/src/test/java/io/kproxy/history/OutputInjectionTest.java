package io.kproxy.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.DataplanePinned;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import io.kproxy.events.SyncKind;
import io.kproxy.model.Printable;
import io.kproxy.model.ServiceRef;
import io.kproxy.state.FoldedState;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32C;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 18, defect 4, at the printers: no value from a record or a snapshot can add a line to
 * {@code render --explain}, {@code diff} or {@code audit} output. The events refuse a hostile
 * resourceVersion (events' ResourceVersionTest), so these tests reach the printers by the ways
 * that stay open: a snapshot file (decoded without any event constructor) holding one, and the
 * free-text fields records may hold (a sync's error, a pin's reason, a backend name).
 */
class OutputInjectionTest {

    /** The reported case: the resourceVersion that turned an {@code --explain} comment into a chain with {@code policy drop}. */
    static final String INJECTED = "1\n}\ntable inet x { chain input { type filter hook input priority 0; policy drop; } }\n#";

    @ParameterizedTest
    @ValueSource(strings = {"nftables", "iptables"})
    void aHostileResourceVersionInASnapshotStaysInsideItsCommentLine(String mode) {
        String placeholder = "9".repeat(INJECTED.length());
        TestLog l = TestLog.threeServices();
        long last = l.at("00:00:04", TestLog.web().resourceVersion(placeholder).observed());
        try (History h = History.of(l.log)) {
            Rendering r = h.render(h.atOffset(last), Optional.of(mode));
            FoldedState forged = FoldedState.fromSnapshot(forge(h.state(last).toSnapshot(), placeholder, INJECTED));
            String out = Explainer.explain(r, forged, h::record);

            assertThat(out).contains("# ns/web: Service #" + last + " 2026-01-01T00:00:04.000Z ServiceObserved rv "
                    + Printable.escape(INJECTED) + "\n");
            assertThat(out.lines().filter(x -> !x.startsWith("#") && !x.isBlank()).toList()).as("explain only adds comment lines")
                    .isEqualTo(r.text().lines().filter(x -> !x.startsWith("#") && !x.isBlank()).toList());
            assertThat(out.lines()).noneMatch(x -> x.startsWith("table inet x") || x.equals("}"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"nftables", "iptables"})
    void freeTextFieldsOfRecordsPrintOnOneLineInAuditAndDiff(String mode) {
        String hostile = "nft: Error\nadd chain ip kube-proxy evil { type filter hook input priority 0 ; policy drop ; }\r\u001b[2J\u2028#";
        TestLog l = TestLog.threeServices();
        long first = l.at("00:00:04", new SyncApplied(mode, 1, 9, SyncKind.FULL, "h1", Duration.ofMillis(3)));
        long change = l.at("00:00:05", TestLog.webSlice("23", "10.0.1.13").observed());
        l.at("00:00:06", new SyncFailed(mode + "\n-A INPUT -j DROP", 2, change, SyncKind.PARTIAL, hostile, true, Duration.ZERO));
        l.at("00:00:07", new DataplanePinned(first, hostile));
        try (History h = History.of(l.log)) {
            String audit = h.audit(new ServiceRef("ns", "web"), Optional.empty());
            String diff = h.diff(h.atOffset(first), h.atOffset(change + 2), Optional.of(mode));
            for (String text : List.of(audit, diff)) {
                assertThat(text.lines()).allMatch(Printable::isPrintable);
                assertThat(text.lines()).noneMatch(x -> x.startsWith("add chain ip kube-proxy evil") || x.startsWith("-A INPUT") || x.equals("#"));
            }
            assertThat(audit).contains("failed at 2026-01-01T00:00:06.000Z: " + Printable.escape(hostile) + "\n");
            assertThat(audit).contains("DataplanePinned to #" + first + ": " + Printable.escape(hostile) + "\n");
            assertThat(diff).contains("SyncFailed 1");
        }
    }

    /** {@code snapshot} with {@code from} replaced by {@code to} (same UTF-8 length) and its CRC-32C made right again: a forged file. */
    static byte[] forge(byte[] snapshot, String from, String to) {
        byte[] a = from.getBytes(StandardCharsets.UTF_8);
        byte[] b = to.getBytes(StandardCharsets.UTF_8);
        assertThat(b).hasSameSizeAs(a);
        int at = -1;
        for (int i = 0; i + a.length <= snapshot.length && at < 0; i++) {
            if (ByteBuffer.wrap(snapshot, i, a.length).equals(ByteBuffer.wrap(a))) {
                at = i;
            }
        }
        assertThat(at).as("placeholder in the snapshot").isNotNegative();
        byte[] out = snapshot.clone();
        System.arraycopy(b, 0, out, at, b.length);
        CRC32C crc = new CRC32C();
        crc.update(out, 0, out.length - 4);
        ByteBuffer.wrap(out).putInt(out.length - 4, (int) crc.getValue());
        return out;
    }
}
