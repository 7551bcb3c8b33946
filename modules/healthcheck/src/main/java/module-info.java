/**
 * The HTTP servers upstream kube-proxy runs, over what the engine computes: the health server
 * ({@code /healthz}, {@code /livez}) and the metrics server ({@code /metrics}, {@code /proxyMode},
 * {@code /configz}) in {@code StatusServers}, and one server per Service health-check node port in
 * {@code HealthCheckServers} (upstream's {@code pkg/proxy/healthcheck}; see this module's
 * README). Each sits on an {@code io.kproxy.listen} listener with its limits. A port that cannot be
 * bound is reported to {@code BindFailures}, where the application records upstream's warning
 * Events: this module sees no Kubernetes client.
 */
module io.kproxy.healthcheck {
    // The servers answer from the engine's health, checks and metrics, and bind what ProxyConfig says.
    requires transitive io.kproxy.engine;
    // Limits is part of the servers' constructors.
    requires transitive io.kproxy.listen;
    requires org.slf4j;

    exports io.kproxy.healthcheck;
}
