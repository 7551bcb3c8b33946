/**
 * The Kubernetes source: fabric8 informers on Services and {@code discovery.k8s.io/v1}
 * EndpointSlices (with upstream's service-proxy-name and headless label filter), on this
 * node's own Node and on {@code networking.k8s.io/v1} ServiceCIDRs, every callback appended to the {@link io.kproxy.journal.spi.EventLog} as a
 * past-tense event, with relist barriers, a restart that appends only what changed (resuming the
 * watches where the last run stopped when it can: {@link io.kproxy.source.kube.ResumePoint}), a watchdog
 * for the watch failures fabric8 does not recover from, and appends that retry instead of
 * dropping. It also records this proxy's Kubernetes Events ({@link io.kproxy.source.kube.EventRecorder}).
 *
 * <p>This is the only module that sees fabric8 types; they stay in the non-exported
 * {@code io.kproxy.source.kube.internal} package. The exported API speaks in events, JSON trees
 * and plain records.
 */
module io.kproxy.source.kube {
    requires transitive io.kproxy.events;
    requires transitive io.kproxy.journal;
    requires kubernetes.client.api;
    requires kubernetes.client;
    requires kubernetes.model.core;
    requires kubernetes.model.common;
    requires kubernetes.model.discovery;
    // Events are written through events.k8s.io/v1 (docs/operations.md, "Events").
    requires kubernetes.model.events;
    requires io.fabric8.kubernetes.client.jdkhttp;
    requires com.fasterxml.jackson.databind;
    // The kubeconfig is read here (fabric8's reader ignores tokenFile), and it is YAML.
    requires com.fasterxml.jackson.dataformat.yaml;
    requires io.github.resilience4j.core;
    requires io.github.resilience4j.retry;
    requires org.slf4j;
    // fabric8's JDK HTTP client runs on java.net.http and, as an automatic module, cannot say so.
    requires java.net.http;

    exports io.kproxy.source.kube;
    // Jackson instantiates RawJson's deserializer by reflection.
    opens io.kproxy.source.kube.internal to com.fasterxml.jackson.databind;
}
