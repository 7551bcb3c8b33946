package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The start-up logging that replaced {@code logback.xml}: the same levels and target, found by logback as a service. */
class LogDefaultsTest {

    private static LoggerContext fresh() {
        LoggerContext ctx = new LoggerContext();
        ctx.start();
        return ctx;
    }

    @Test
    void warningsGoToStandardErrorEscapedAndTheNoisyLibrariesOnlyAtError() {
        LoggerContext ctx = fresh();
        LogDefaults.apply(ctx);
        Logger root = ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        assertThat(root.getLevel()).isEqualTo(Level.WARN);
        List<Appender<ILoggingEvent>> appenders = new ArrayList<>();
        root.iteratorForAppenders().forEachRemaining(appenders::add);
        assertThat(appenders).singleElement().isInstanceOfSatisfying(ConsoleAppender.class, a -> {
            assertThat(a.getTarget()).isEqualTo("System.err");
            assertThat(a.getEncoder()).isInstanceOf(EscapingEncoder.class);
            assertThat(a.isStarted()).isTrue();
        });
        assertThat(ctx.getLogger(LogDefaults.INFORMER_REFLECTOR).getEffectiveLevel()).isEqualTo(Level.ERROR);
        assertThat(ctx.getLogger(LogDefaults.WEBSOCKET).getEffectiveLevel()).isEqualTo(Level.ERROR);
        assertThat(ctx.getLogger("io.fabric8.kubernetes.client.Config").getEffectiveLevel()).isEqualTo(Level.WARN);
        assertThat(ctx.getLogger("io.kproxy.engine.Engine").getEffectiveLevel()).isEqualTo(Level.WARN);
    }

    @Test
    void aLogbackTestXmlWinsAsItDidOverLogbackXml() {
        // This module's tests have a logback-test.xml: logback's own search must find it.
        assertThat(LogDefaults.overridden()).isTrue();
        LoggerContext ctx = fresh();
        assertThat(new LogDefaults().configure(ctx)).isEqualTo(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY);
        assertThat(ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).iteratorForAppenders().hasNext()).isFalse();
        assertThat(ctx.getLogger(LogDefaults.INFORMER_REFLECTOR).getLevel()).isNull();
    }

    @Test
    void logbackFindsItOnTheModulePathAndOnTheClassPath() throws IOException {
        Module app = LogDefaults.class.getModule();
        if (app.isNamed()) {
            assertThat(app.getDescriptor().provides()).extracting(ModuleDescriptor.Provides::service, ModuleDescriptor.Provides::providers)
                    .contains(org.assertj.core.groups.Tuple.tuple(Configurator.class.getName(), List.of(LogDefaults.class.getName())));
        }
        try (InputStream in = LogDefaults.class.getResourceAsStream("/META-INF/services/" + Configurator.class.getName())) {
            assertThat(in).isNotNull();
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8).strip()).isEqualTo(LogDefaults.class.getName());
        }
    }
}
