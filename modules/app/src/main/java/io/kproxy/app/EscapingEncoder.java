package io.kproxy.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.LoggerContextVO;
import ch.qos.logback.classic.spi.StackTraceElementProxy;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.EncoderBase;
import io.kproxy.model.Printable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Marker;
import org.slf4j.event.KeyValuePair;

/**
 * The encoder of every kproxy log line: hands {@code inner} (the text pattern or JSON encoder) an
 * event whose every outside value is escaped to one printable line ({@link Printable#escape}):
 * the formatted message, the message pattern and its arguments, the thread name, MDC and
 * key-value pair values, and each throwable's message (stack frames stay one per line). So no
 * value can start a new log line or drive a terminal, whatever the call site logs: a forged
 * admin-socket {@code op} (issue 18, defect 4), an object's name, an API server's error. A
 * per-call-site escape would have to be remembered at each of the hundreds of log calls; this
 * cannot be forgotten.
 *
 * <p>JSON output was already one line per event (logback's {@code JsonEncoder} escapes the C0
 * controls), but C1 controls such as U+009B (an 8-bit CSI, which terminals obey) and U+2028
 * (which some log shippers split on) passed through raw; it gets the same escaping, so both
 * formats show the same text.
 * Called under the appender's lock, as every encoder; holds no state of its own.
 */
final class EscapingEncoder extends EncoderBase<ILoggingEvent> {

    private final Encoder<ILoggingEvent> inner;

    EscapingEncoder(Encoder<ILoggingEvent> inner) {
        this.inner = inner;
    }

    @Override
    public byte[] headerBytes() {
        return inner.headerBytes();
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        return inner.encode(new Escaped(event));
    }

    @Override
    public byte[] footerBytes() {
        return inner.footerBytes();
    }

    @Override
    public void start() {
        if (!inner.isStarted()) {
            inner.start();
        }
        super.start();
    }

    @Override
    public void stop() {
        inner.stop();
        super.stop();
    }

    private static String escape(Object value) {
        return value == null ? null : Printable.escape(value.toString());
    }

    private static Map<String, String> escape(Map<String, String> map) {
        if (map == null || map.isEmpty()) {
            return map;
        }
        Map<String, String> out = new LinkedHashMap<>();
        map.forEach((k, v) -> out.put(escape(k), escape(v)));
        return out;
    }

    /** The event as logged, with every outside value escaped. */
    private record Escaped(ILoggingEvent e) implements ILoggingEvent {

        @Override
        public String getThreadName() {
            return escape(e.getThreadName());
        }

        @Override
        public Level getLevel() {
            return e.getLevel();
        }

        @Override
        public String getMessage() {
            return escape(e.getMessage());
        }

        @Override
        public Object[] getArgumentArray() {
            Object[] args = e.getArgumentArray();
            if (args == null) {
                return null;
            }
            Object[] out = new Object[args.length];
            for (int i = 0; i < args.length; i++) {
                out[i] = escape(args[i]);
            }
            return out;
        }

        /** The message as the call site's arguments formatted it, escaped as a whole: nothing in it can end the line. */
        @Override
        public String getFormattedMessage() {
            return escape(e.getFormattedMessage());
        }

        @Override
        public String getLoggerName() {
            return e.getLoggerName();
        }

        @Override
        public LoggerContextVO getLoggerContextVO() {
            return e.getLoggerContextVO();
        }

        @Override
        public IThrowableProxy getThrowableProxy() {
            IThrowableProxy t = e.getThrowableProxy();
            return t == null ? null : new EscapedThrowable(t);
        }

        @Override
        public StackTraceElement[] getCallerData() {
            return e.getCallerData();
        }

        @Override
        public boolean hasCallerData() {
            return e.hasCallerData();
        }

        @Override
        public List<Marker> getMarkerList() {
            return e.getMarkerList();
        }

        @Override
        public Map<String, String> getMDCPropertyMap() {
            return escape(e.getMDCPropertyMap());
        }

        @Override
        @SuppressWarnings("deprecation")
        public Map<String, String> getMdc() {
            return escape(e.getMdc());
        }

        @Override
        public long getTimeStamp() {
            return e.getTimeStamp();
        }

        @Override
        public int getNanoseconds() {
            return e.getNanoseconds();
        }

        @Override
        public long getSequenceNumber() {
            return e.getSequenceNumber();
        }

        @Override
        public List<KeyValuePair> getKeyValuePairs() {
            List<KeyValuePair> pairs = e.getKeyValuePairs();
            if (pairs == null || pairs.isEmpty()) {
                return pairs;
            }
            List<KeyValuePair> out = new ArrayList<>(pairs.size());
            pairs.forEach(p -> out.add(new KeyValuePair(escape(p.key), escape(p.value))));
            return out;
        }

        @Override
        public void prepareForDeferredProcessing() {
            e.prepareForDeferredProcessing();
        }
    }

    /** A throwable whose message (and its causes' and suppressed ones') is escaped; frames as they are. */
    private record EscapedThrowable(IThrowableProxy t) implements IThrowableProxy {

        @Override
        public String getOverridingMessage() {
            return escape(t.getOverridingMessage());
        }

        @Override
        public String getMessage() {
            return escape(t.getMessage());
        }

        @Override
        public String getClassName() {
            return t.getClassName();
        }

        @Override
        public StackTraceElementProxy[] getStackTraceElementProxyArray() {
            return t.getStackTraceElementProxyArray();
        }

        @Override
        public int getCommonFrames() {
            return t.getCommonFrames();
        }

        @Override
        public IThrowableProxy getCause() {
            IThrowableProxy c = t.getCause();
            return c == null ? null : new EscapedThrowable(c);
        }

        @Override
        public IThrowableProxy[] getSuppressed() {
            IThrowableProxy[] s = t.getSuppressed();
            if (s == null) {
                return null;
            }
            IThrowableProxy[] out = new IThrowableProxy[s.length];
            for (int i = 0; i < s.length; i++) {
                out[i] = new EscapedThrowable(s[i]);
            }
            return out;
        }

        @Override
        public boolean isCyclic() {
            return t.isCyclic();
        }
    }
}
