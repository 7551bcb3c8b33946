package io.kproxy.app;

import io.kproxy.app.node.ConntrackSettings;
import io.kproxy.app.node.Setting;
import io.kproxy.model.ServiceRef;
import io.kproxy.source.kube.ApiEvent;
import io.kproxy.source.kube.ObjectRef;
import java.util.List;

/**
 * The Kubernetes Events upstream kube-proxy records, with its reasons, actions and notes
 * (docs/operations.md, "Events"). Pure.
 */
final class UpstreamEvents {

    /** Upstream's action for everything at start ({@code cmd/kube-proxy/app/server.go}). */
    static final String START = "StartKubeProxy";

    private UpstreamEvents() {
    }

    /**
     * Upstream's birth cry, once the watches are started ({@code cmd/kube-proxy/app/server.go},
     * birthCry): Normal, reason {@code Starting}, no note since the move to events.k8s.io
     * (the core/v1 recorder of v1.18 and before wrote "Starting kube-proxy.").
     */
    static ApiEvent starting(String node) {
        return ApiEvent.normal("Starting", START, "", ObjectRef.node(node));
    }

    /**
     * The health server's port cannot be bound: upstream's {@code FailedToStartProxierHealthcheck}
     * with its note as the releases whose {@code pkg/proxy/healthcheck/proxier_health.go} (Run)
     * recorded it on every bind failure; current master records it from
     * {@code cmd/kube-proxy/app/server.go} only with bindAddressHardFail, because without it
     * it retries the bind every 5 s. kproxy does not retry, so it records it in both cases.
     */
    static ApiEvent proxierHealthcheckFailed(String node, String address, String error) {
        return ApiEvent.warning("FailedToStartProxierHealthcheck", START, "failed to start proxier healthz on " + address + ": " + error,
                ObjectRef.node(node));
    }

    /** The metrics port cannot be bound: upstream's {@code FailedToStartMetricServer} ({@code cmd/kube-proxy/app/server.go}, serveMetrics' error). */
    static ApiEvent metricServerFailed(String node, String address, String error) {
        return ApiEvent.warning("FailedToStartMetricServer", START, "starting metrics server failed: listen " + address + ": " + error,
                ObjectRef.node(node));
    }

    /**
     * A Service's health-check node port cannot be bound ({@code pkg/proxy/healthcheck/service_health.go},
     * SyncServices): Warning {@code FailedToStartServiceHealthcheck}, action {@code Listen}, on the Service.
     */
    static ApiEvent serviceHealthcheckFailed(String node, ServiceRef service, int port, String error) {
        return ApiEvent.warning("FailedToStartServiceHealthcheck", "Listen",
                "node " + node + " failed to start healthcheck \"" + service + "\" on port " + port + ": " + error,
                ObjectRef.service(service.namespace(), service.name()));
    }

    /**
     * {@code /sys} is read-only, so the conntrack hash size cannot be raised: upstream's warning on
     * the node, reason {@code readOnlySysFS} ({@code cmd/kube-proxy/app/server_linux.go},
     * setupConntrack, up to v1.29; current master's {@code pkg/proxy/conntrack/sysctls.go}
     * has no such check and records nothing). kproxy keeps the older refusal (docs/operations.md,
     * "Node settings"), so it keeps its Event and note.
     */
    static ApiEvent readOnlySysFs(String node) {
        return ApiEvent.warning("readOnlySysFS", START, ConntrackSettings.READ_ONLY_SYSFS, ObjectRef.node(node));
    }

    /** The Events the node settings applied at start call for: {@link #readOnlySysFs} when a knob was refused for a read-only /sys. */
    static List<ApiEvent> fromNodeSettings(String node, List<Setting> applied) {
        boolean readOnly = applied.stream().anyMatch(s -> s instanceof Setting.Refused r && r.reason().equals(ConntrackSettings.READ_ONLY_SYSFS));
        return readOnly ? List.of(readOnlySysFs(node)) : List.of();
    }
}
