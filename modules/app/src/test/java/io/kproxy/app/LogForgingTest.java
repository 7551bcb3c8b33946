package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import io.kproxy.model.Printable;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 18, defect 4: the log cannot be forged. Whatever a log call's arguments, exception
 * messages or MDC hold, each event is exactly one line, with line terminators and terminal
 * controls escaped ({@link EscapingEncoder}), in both formats ({@code logging.format}).
 */
class LogForgingTest {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private LoggerContext ctx;

    private Logger logger(String format) {
        ctx = new LoggerContext();
        ctx.setMDCAdapter(org.slf4j.MDC.getMDCAdapter());
        ctx.start();
        OutputStreamAppender<ILoggingEvent> a = new OutputStreamAppender<>();
        a.setContext(ctx);
        a.setEncoder(Logging.encoder(ctx, format));
        a.setOutputStream(bytes);
        a.start();
        Logger log = ctx.getLogger("io.kproxy.test");
        log.addAppender(a);
        log.setAdditive(false);
        assertThat(a.isStarted()).as("%s", ctx.getStatusManager().getCopyOfStatusList()).isTrue();
        return log;
    }

    private List<String> lines() {
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out).as("%s", ctx.getStatusManager().getCopyOfStatusList()).endsWith("\n");
        return out.lines().toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"text", "json"})
    void anArgumentWithANewlineAndAnAnsiEscapeStaysOneEscapedLine(String format) {
        logger(format).warn("decision=skip-object kind=SERVICE key={}", "ns/a\n2026-11-26T07:00:00.000Z level=ERROR forged\u001b[31m");
        List<String> lines = lines();
        assertThat(lines).hasSize(1);
        assertThat(lines.getFirst()).doesNotContain("\u001b").doesNotContain("\r");
        String escaped = format.equals("text") ? "key=ns/a\\n2026-11-26T07:00:00.000Z level=ERROR forged\\x1b[31m"
                : "a\\\\n2026-11-26T07:00:00.000Z level=ERROR forged\\\\x1b[31m"; // an argument; JSON escapes the escape's backslash
        assertThat(lines.getFirst()).contains(escaped);
    }

    /**
     * The admin socket's refusal of an unknown {@code op} quotes the op (AdminServer logs
     * {@code decision=refuse-admin-request reason="..."} with AdminRequest's message): a
     * JSON-escaped newline in the op decodes to a real one, which used to start a forged line.
     */
    @ParameterizedTest
    @ValueSource(strings = {"text", "json"})
    void aForgedAdminOpStaysOneLine(String format) {
        String op = "status\"\n2026-11-26T07:00:00.000+00:00 level=INFO logger=AdminServer decision=admin-request request={'op':'unpin'} "
                + "outcome=done\r\u2028\u0085\u009b2J";
        String reason = "unknown op \"" + op + "\" (pin, unpin or status)";
        logger(format).warn("decision=refuse-admin-request reason=\"{}\"", reason.replace('"', '\''));
        List<String> lines = lines();
        assertThat(lines).hasSize(1);
        assertThat(lines.getFirst()).contains("decision=refuse-admin-request").doesNotContain("\r", "\u2028", "\u0085", "\u009b");
        assertThat(Printable.isPrintable(lines.getFirst())).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"text", "json"})
    void exceptionMessagesAndMdcCannotAddLinesEither(String format) {
        Logger log = logger(format);
        Exception e = new IllegalStateException("boom\nlevel=ERROR forged", new RuntimeException("cause\r\nlevel=INFO forged"));
        org.slf4j.MDC.put("key", "v\nlevel=ERROR forged");
        try {
            log.error("decision=failed", e);
        } finally {
            org.slf4j.MDC.remove("key");
        }
        assertThat(lines()).noneMatch(l -> l.startsWith("level=") || l.contains("\rlevel"))
                .allMatch(l -> l.startsWith("\tat ") || l.startsWith("\t... ") || l.startsWith("Caused by: ") || l.startsWith("java.lang.") || l.startsWith("20")
                        || l.startsWith("{"));
    }

    /** Seeded: any string in any argument or message gives one line per event. */
    @ParameterizedTest
    @ValueSource(strings = {"text", "json"})
    void anyArgumentGivesOneLinePerEvent(String format) {
        long seed = System.nanoTime();
        SplittableRandom r = new SplittableRandom(seed);
        Logger log = logger(format);
        int events = 300;
        for (int i = 0; i < events; i++) {
            StringBuilder b = new StringBuilder();
            for (int j = r.nextInt(30); j > 0; j--) {
                b.append((char) (r.nextInt(4) == 0 ? r.nextInt(0x20) : r.nextInt(0x3000)));
            }
            log.info(b.toString() + " arg={}", b);
        }
        assertThat(lines()).as("seed %d", seed).hasSize(events).allMatch(Printable::isPrintable);
    }
}
