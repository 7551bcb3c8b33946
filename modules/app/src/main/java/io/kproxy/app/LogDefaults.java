package io.kproxy.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * Logback's start-up configuration, found as a service ({@code module-info.java}): warnings and
 * errors on standard error through {@link EscapingEncoder}, nothing on standard output, until a
 * command configures logging from its flags ({@link Logging#configure}). In code rather than a
 * {@code logback.xml}: parsing one loaded the JDK's XML parser and logback's Joran, about 450
 * classes and a tenth of a second of every start (docs/benchmarks.md, "Scale").
 *
 * <p>A {@code logback.configurationFile} system property or a {@code logback-test.xml} on the
 * module or class path still wins: this configurator then steps aside for logback's own search.
 * Called once by logback's initialisation, on the thread that first asks for a logger.
 */
public final class LogDefaults extends ContextAwareBase implements Configurator {

    /**
     * fabric8 logs every failed list or watch at WARN with a stack trace and retries; the source
     * logs each failure itself in one line (io.kproxy.source.kube KindWatch). ERROR stays.
     */
    static final String INFORMER_REFLECTOR = "io.fabric8.kubernetes.client.informers.impl.cache.Reflector";
    /**
     * fabric8's watch echoes the close code of a dropped connection (1006), which the JDK refuses
     * to send: two WARN lines with stack traces per watch on every API server outage, for nothing
     * (the watch reconnects; the source reports the outage once, io.kproxy.source.kube Reachability).
     */
    static final String WEBSOCKET = "io.fabric8.kubernetes.client.jdkhttp.JdkWebSocketImpl";

    /** For the service loader. */
    public LogDefaults() {
    }

    @Override
    public ExecutionStatus configure(LoggerContext ctx) {
        if (overridden()) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        apply(ctx);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /** Whether an XML configuration was asked for: a {@code logback.configurationFile}, or a {@code logback-test.xml} (tests). */
    static boolean overridden() {
        return System.getProperty("logback.configurationFile") != null
                || LogDefaults.class.getClassLoader().getResource("logback-test.xml") != null;
    }

    static void apply(LoggerContext ctx) {
        Logging.defaults(ctx);
        quietLibraries(ctx);
    }

    /** The two libraries' loggers that would repeat, with stack traces, what kproxy logs in one line. */
    static void quietLibraries(LoggerContext ctx) {
        ctx.getLogger(INFORMER_REFLECTOR).setLevel(Level.ERROR);
        ctx.getLogger(WEBSOCKET).setLevel(Level.ERROR);
    }
}
