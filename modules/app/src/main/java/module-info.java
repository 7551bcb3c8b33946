/**
 * The {@code kproxy} command (DESIGN.md §2, "wiring only"): {@code kproxy run}, the node agent
 * (journal, engine, Kubernetes source and the HTTP endpoints upstream kube-proxy serves), and
 * {@code kproxy render}, the ruleset for objects in files or at a time of a journal, and the
 * time-travel commands over a journal ({@code diff}, {@code audit}, {@code journal inspect|verify},
 * all in {@code io.kproxy.history}). Backends are found at run time through
 * {@link io.kproxy.backend.spi.BackendProvider}; none is compiled against.
 */
module io.kproxy.app {
    requires io.kproxy.engine;
    requires io.kproxy.history;
    requires io.kproxy.source.kube;
    requires io.kproxy.journal;
    requires io.kproxy.config;
    requires io.kproxy.backend;
    requires info.picocli;
    requires org.slf4j;
    requires ch.qos.logback.classic;
    requires ch.qos.logback.core;
    requires jdk.httpserver;
    // fabric8's JDK HTTP client (inside the source) runs on java.net.http and, as an automatic
    // module, cannot say so itself (DEPENDENCIES.md).
    requires java.net.http;

    // picocli reads and writes the annotated command fields reflectively.
    opens io.kproxy.app to info.picocli;
}
