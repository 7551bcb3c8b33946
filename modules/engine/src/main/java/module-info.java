/**
 * The node agent's engine (docs/design.md, "Engine"): a Reactor pipeline that tails the event log,
 * folds it into the node's desired state and drives a backend through a sync runner with upstream's
 * guarantees; the proxy's health ({@code /healthz}, {@code /livez}, health-check node ports) and
 * upstream's metrics through Micrometer's Prometheus registry. It sees no Kubernetes client type
 * and opens no socket: the application serves what it computes.
 */
module io.kproxy.engine {
    requires transitive io.kproxy.journal;
    requires io.kproxy.replay;
    requires transitive io.kproxy.backend;
    requires transitive io.kproxy.config;
    requires transitive micrometer.core;
    requires transitive micrometer.registry.prometheus;
    requires io.prometheus.metrics.core;
    requires io.github.resilience4j.core;
    requires org.slf4j;

    exports io.kproxy.engine;
}
