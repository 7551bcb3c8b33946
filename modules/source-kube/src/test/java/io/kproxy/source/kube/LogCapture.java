package io.kproxy.source.kube;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Test-only: every log event of every logger (kproxy's and the libraries', at every level they
 * are enabled at) while open, with the text of attached throwables, for assertions such as "the
 * token appears nowhere". Not thread-safe to open twice at once.
 */
final class LogCapture implements AutoCloseable {

    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    LogCapture() {
        appender.start();
        root.addAppender(appender);
    }

    /** Events so far (a copy). */
    List<ILoggingEvent> events() {
        synchronized (appender.list) {
            return List.copyOf(appender.list);
        }
    }

    /** Each event as one string: level, logger, message, and its throwable's full text if any. */
    List<String> lines() {
        return events().stream().map(LogCapture::render).toList();
    }

    /** WARN and ERROR events' messages whose message contains {@code text}. */
    List<String> warnings(String text) {
        return events().stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                .map(ILoggingEvent::getFormattedMessage).filter(m -> m.contains(text)).toList();
    }

    /** All captured text (messages and stack traces) joined. */
    String all() {
        return String.join("\n", lines());
    }

    static String render(ILoggingEvent e) {
        IThrowableProxy t = e.getThrowableProxy();
        return e.getLevel() + " " + e.getLoggerName() + " " + e.getFormattedMessage()
                + (t == null ? "" : "\n" + ThrowableProxyUtil.asString(t));
    }

    @Override
    public void close() {
        root.detachAppender(appender);
        appender.stop();
    }
}
