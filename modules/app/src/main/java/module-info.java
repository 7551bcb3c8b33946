/**
 * The {@code kproxy} command (wiring only: docs/design.md, "Modules"): {@code kproxy run}, the node
 * agent (journal, engine, Kubernetes source, and the servers of {@code io.kproxy.healthcheck} and
 * {@code io.kproxy.admin} wired to them), {@code kproxy render}, the ruleset for objects in files
 * or at a time of a journal, the time-travel commands over a journal ({@code diff}, {@code audit},
 * {@code journal inspect|verify}, all in {@code io.kproxy.history}), {@code kproxy
 * rollback}/{@code resume}/{@code status}, the admin socket's commands, {@code kproxy ui} (the page of {@code io.kproxy.ui}), and the tools {@code kproxy demo}
 * ({@code io.kproxy.demo}) and {@code kproxy samples} ({@code io.kproxy.sample}).
 * Backends are found at run time through {@link io.kproxy.backend.spi.BackendProvider}; none is
 * compiled against.
 */
module io.kproxy.app {
    requires io.kproxy.engine;
    requires io.kproxy.admin;
    requires io.kproxy.healthcheck;
    requires io.kproxy.listen;
    requires io.kproxy.history;
    // kproxy ui, and the agent's --ui-listen.
    requires io.kproxy.ui;
    // Tools the CLI wires: kproxy demo and kproxy samples generate.
    requires io.kproxy.demo;
    requires io.kproxy.sample;
    requires io.kproxy.source.kube;
    requires io.kproxy.journal;
    // eventLog: kafka, kproxy record and the time-travel commands over a topic (docs/kafka.md).
    requires io.kproxy.journal.kafka;
    requires io.kproxy.recorder;
    requires io.kproxy.config.loader;
    requires io.kproxy.backend;
    requires info.picocli;
    requires org.slf4j;
    requires ch.qos.logback.classic;
    requires ch.qos.logback.core;
    // fabric8's JDK HTTP client (inside the source) runs on java.net.http and, as an automatic
    // module, cannot say so itself (docs/dependencies.md).
    requires java.net.http;

    // Logback's start-up configuration in code instead of a logback.xml (LogDefaults).
    provides ch.qos.logback.classic.spi.Configurator with io.kproxy.app.LogDefaults;

    // picocli reads and writes the annotated command fields reflectively.
    opens io.kproxy.app to info.picocli;
}
