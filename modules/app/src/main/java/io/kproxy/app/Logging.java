package io.kproxy.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.encoder.Encoder;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;

/**
 * Structured logs on standard error (standard output stays clean for {@code render}): one line
 * per decision, {@code key=value} text or JSON ({@code logging.format}, as upstream's
 * {@code --logging-format}); the level from {@code logging.verbosity} / {@code -v} in klog's
 * spirit (0–3 info, 4–5 debug, 6 and more trace). Libraries stay at warnings below trace. Every
 * encoder is an {@link EscapingEncoder}: one event is one line, whatever its values hold.
 */
final class Logging {

    static final String TEXT_PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} level=%level logger=%logger{0} thread=%thread %msg%n";
    /** The pattern in force from start-up ({@link LogDefaults}) until a command configures logging. */
    static final String DEFAULT_PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} level=%level logger=%logger{0} %msg%n";

    private Logging() {
    }

    /**
     * Warnings and errors on standard error, nothing on standard output, through
     * {@link EscapingEncoder}: {@code Main} calls this first, so that every command's log lines
     * are escaped from the start, before any configuration is read, also when a
     * {@code logback.configurationFile} replaced {@link LogDefaults}.
     */
    static void defaults() {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx) {
            defaults(ctx);
        }
    }

    /** {@link #defaults()} on {@code ctx}: also {@link LogDefaults}' configuration, before logback hands out its first logger. */
    static void defaults(LoggerContext ctx) {
        Logger root = ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.detachAndStopAllAppenders();
        root.addAppender(stderr(ctx, text(ctx, DEFAULT_PATTERN)));
        root.setLevel(Level.WARN);
    }

    static void configure(String format, long verbosity) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx)) {
            return;
        }
        Level level = verbosity >= 6 ? Level.TRACE : verbosity >= 4 ? Level.DEBUG : Level.INFO;
        Logger root = ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.detachAndStopAllAppenders();
        root.addAppender(stderr(ctx, encoder(ctx, format)));
        root.setLevel(Level.WARN);
        ctx.getLogger("io.kproxy").setLevel(level);
        if (level == Level.TRACE) {
            root.setLevel(Level.TRACE);
        }
    }

    /**
     * Everything to {@code file} instead of standard error (the demo: its own output is the
     * timeline), kproxy at info, libraries at warnings.
     */
    static void toFile(Path file) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx)) {
            return;
        }
        Logger root = ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.detachAndStopAllAppenders();
        FileAppender<ILoggingEvent> f = new FileAppender<>();
        f.setContext(ctx);
        f.setName("file");
        f.setFile(file.toString());
        f.setAppend(false);
        f.setEncoder(encoder(ctx, "text"));
        f.start();
        root.addAppender(f);
        root.setLevel(Level.WARN);
        ctx.getLogger("io.kproxy").setLevel(Level.INFO);
    }

    private static ConsoleAppender<ILoggingEvent> stderr(LoggerContext ctx, Encoder<ILoggingEvent> encoder) {
        ConsoleAppender<ILoggingEvent> out = new ConsoleAppender<>();
        out.setContext(ctx);
        out.setName("stderr");
        out.setTarget("System.err");
        out.setEncoder(encoder);
        out.start();
        return out;
    }

    /** The encoder of {@code format} ({@code json} or text), behind {@link EscapingEncoder}: no log line can be forged. */
    static Encoder<ILoggingEvent> encoder(LoggerContext ctx, String format) {
        if (format.equals("json")) {
            JsonEncoder json = new JsonEncoder();
            json.setContext(ctx);
            return escaping(ctx, json);
        }
        return text(ctx, TEXT_PATTERN);
    }

    private static Encoder<ILoggingEvent> text(LoggerContext ctx, String pattern) {
        PatternLayoutEncoder text = new PatternLayoutEncoder();
        text.setContext(ctx);
        text.setPattern(pattern);
        return escaping(ctx, text);
    }

    private static Encoder<ILoggingEvent> escaping(LoggerContext ctx, Encoder<ILoggingEvent> inner) {
        EscapingEncoder e = new EscapingEncoder(inner);
        e.setContext(ctx);
        e.start();
        return e;
    }
}
