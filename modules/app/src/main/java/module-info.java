/**
 * The {@code kproxy} command (wiring only: docs/design.md, "Modules"): {@code kproxy run}, the node
 * agent (journal, engine, Kubernetes source, the HTTP endpoints upstream kube-proxy serves and the
 * admin socket), {@code kproxy render}, the ruleset for objects in files or at a time of a journal,
 * the time-travel commands over a journal ({@code diff}, {@code audit}, {@code journal
 * inspect|verify}, all in {@code io.kproxy.history}), {@code kproxy rollback}/{@code resume}/{@code
 * status}, the admin socket's clients, and {@code kproxy demo}. Backends are found at run time through
 * {@link io.kproxy.backend.spi.BackendProvider}; none is compiled against.
 */
module io.kproxy.app {
    requires io.kproxy.engine;
    requires io.kproxy.history;
    requires io.kproxy.source.kube;
    requires io.kproxy.journal;
    requires io.kproxy.config;
    requires io.kproxy.backend;
    // The demo enters its network namespaces with setns(2) to run pods and a client there.
    requires io.kproxy.netns;
    requires info.picocli;
    // SO_PEERCRED: the admin socket admits root or the configured group by the peer's credentials.
    requires jdk.net;
    requires org.slf4j;
    requires ch.qos.logback.classic;
    requires ch.qos.logback.core;
    // fabric8's JDK HTTP client (inside the source) runs on java.net.http and, as an automatic
    // module, cannot say so itself (docs/dependencies.md).
    requires java.net.http;

    // picocli reads and writes the annotated command fields reflectively.
    opens io.kproxy.app to info.picocli;
}
