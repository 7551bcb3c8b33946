package io.kproxy.app;

import io.kproxy.healthcheck.BindFailures;
import io.kproxy.model.ServiceRef;
import io.kproxy.source.kube.EventRecorder;

/**
 * The health servers' bind failures recorded as upstream's warning Events, as node {@code node}
 * ({@link UpstreamEvents}; docs/operations.md, "Events"). Thread-safe as {@code events} is.
 */
record BindFailureEvents(EventRecorder events, String node) implements BindFailures {

    BindFailureEvents {
        if (events == null || node == null) {
            throw new IllegalArgumentException("events and node are required");
        }
    }

    @Override
    public void healthz(String address, String error) {
        events.record(UpstreamEvents.proxierHealthcheckFailed(node, address, error));
    }

    @Override
    public void metrics(String address, String error) {
        events.record(UpstreamEvents.metricServerFailed(node, address, error));
    }

    @Override
    public void serviceHealthCheck(ServiceRef service, int port, String error) {
        events.record(UpstreamEvents.serviceHealthcheckFailed(node, service, port, error));
    }
}
