package io.kproxy.healthcheck;

import io.kproxy.model.ServiceRef;

/**
 * Where the servers of this module report a port they cannot bind. Upstream records each as a
 * warning Event ({@code FailedToStartProxierHealthcheck} and {@code FailedToStartMetricServer}
 * on the node, {@code FailedToStartServiceHealthcheck} on the Service:
 * {@code cmd/kube-proxy/app/server.go}, {@code pkg/proxy/healthcheck/service_health.go}); here
 * the application does, so that this module needs no Kubernetes client (docs/operations.md,
 * "Events").
 *
 * <p>Called on the thread that binds (the start, or the engine's sync thread for health-check
 * node ports); an implementation must not block for long. Arguments are never null.
 */
public interface BindFailures {

    /** The health server ({@code healthzBindAddress}) could not bind {@code address}. */
    void healthz(String address, String error);

    /** The metrics server ({@code metricsBindAddress}) could not bind {@code address}. */
    void metrics(String address, String error);

    /** The health-check node port {@code port} of {@code service} could not be bound. */
    void serviceHealthCheck(ServiceRef service, int port, String error);

    /** Reports nothing (the servers log every failure themselves). */
    static BindFailures none() {
        return new BindFailures() {
            @Override
            public void healthz(String address, String error) {
            }

            @Override
            public void metrics(String address, String error) {
            }

            @Override
            public void serviceHealthCheck(ServiceRef service, int port, String error) {
            }
        };
    }
}
