package io.kproxy.testkit;

import io.kproxy.events.ServiceObserved;
import io.kproxy.model.Json;
import io.kproxy.model.ServiceRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a {@code v1} Service object as the API server would send it. Defaults: type
 * ClusterIP, no ports; call {@link #port} for each port. Not thread-safe; one builder per object.
 *
 * <pre>{@code
 * Json.Obj svc = ServiceFixture.service("ns1", "svc1").clusterIP("172.30.0.41").port("p80", 80, "TCP").build();
 * }</pre>
 */
public final class ServiceFixture {

    private final String namespace;
    private final String name;
    private String resourceVersion = "1";
    private String type = "ClusterIP";
    private final List<String> clusterIPs = new ArrayList<>();
    private final List<String> ipFamilies = new ArrayList<>();
    private final List<Json> ports = new ArrayList<>();
    private final List<String> externalIPs = new ArrayList<>();
    private final List<Json> ingress = new ArrayList<>();
    private final List<String> sourceRanges = new ArrayList<>();
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final Map<String, String> annotations = new LinkedHashMap<>();
    private String externalTrafficPolicy;
    private String internalTrafficPolicy;
    private long healthCheckNodePort;
    private long affinityTimeout = -1;
    private String externalName;

    private ServiceFixture(String namespace, String name) {
        this.namespace = namespace;
        this.name = name;
    }

    public static ServiceFixture service(String namespace, String name) {
        return new ServiceFixture(namespace, name);
    }

    public ServiceRef ref() {
        return new ServiceRef(namespace, name);
    }

    public ServiceFixture resourceVersion(String rv) {
        this.resourceVersion = rv;
        return this;
    }

    /** {@code ClusterIP}, {@code NodePort}, {@code LoadBalancer} or {@code ExternalName}. */
    public ServiceFixture type(String type) {
        this.type = type;
        return this;
    }

    /** Sets {@code spec.clusterIP} (first call) and appends to {@code spec.clusterIPs}; "None" makes it headless. */
    public ServiceFixture clusterIP(String ip) {
        clusterIPs.add(ip);
        return this;
    }

    public ServiceFixture ipFamilies(String... families) {
        ipFamilies.addAll(List.of(families));
        return this;
    }

    /** A port without a NodePort. */
    public ServiceFixture port(String portName, int port, String protocol) {
        return port(portName, port, protocol, 0);
    }

    /** A port; {@code nodePort} 0 means none. The target port is the port number. */
    public ServiceFixture port(String portName, int port, String protocol, int nodePort) {
        List<Object> kv = new ArrayList<>();
        if (!portName.isEmpty()) {
            kv.addAll(List.of("name", Json.of(portName)));
        }
        kv.addAll(List.of("protocol", Json.of(protocol), "port", Json.of(port), "targetPort", Json.of(port)));
        if (nodePort != 0) {
            kv.addAll(List.of("nodePort", Json.of(nodePort)));
        }
        ports.add(Json.obj(kv.toArray()));
        return this;
    }

    public ServiceFixture externalIPs(String... ips) {
        externalIPs.addAll(List.of(ips));
        return this;
    }

    /** A {@code status.loadBalancer.ingress} entry with an IP and no ipMode. */
    public ServiceFixture loadBalancerIngress(String ip) {
        ingress.add(Json.obj("ip", Json.of(ip)));
        return this;
    }

    /** A {@code status.loadBalancer.ingress} entry with an IP and an ipMode ({@code VIP} or {@code Proxy}). */
    public ServiceFixture loadBalancerIngress(String ip, String ipMode) {
        ingress.add(Json.obj("ip", Json.of(ip), "ipMode", Json.of(ipMode)));
        return this;
    }

    public ServiceFixture loadBalancerSourceRanges(String... cidrs) {
        sourceRanges.addAll(List.of(cidrs));
        return this;
    }

    /** {@code Cluster} or {@code Local}. */
    public ServiceFixture externalTrafficPolicy(String policy) {
        this.externalTrafficPolicy = policy;
        return this;
    }

    /** {@code Cluster} or {@code Local}. */
    public ServiceFixture internalTrafficPolicy(String policy) {
        this.internalTrafficPolicy = policy;
        return this;
    }

    public ServiceFixture healthCheckNodePort(int port) {
        this.healthCheckNodePort = port;
        return this;
    }

    /** ClientIP session affinity with this timeout. */
    public ServiceFixture sessionAffinity(int timeoutSeconds) {
        this.affinityTimeout = timeoutSeconds;
        return this;
    }

    public ServiceFixture externalName(String host) {
        this.type = "ExternalName";
        this.externalName = host;
        return this;
    }

    public ServiceFixture label(String key, String value) {
        labels.put(key, value);
        return this;
    }

    public ServiceFixture annotation(String key, String value) {
        annotations.put(key, value);
        return this;
    }

    public Json.Obj build() {
        LinkedHashMap<String, Json> spec = new LinkedHashMap<>();
        spec.put("type", Json.of(type));
        if (!clusterIPs.isEmpty()) {
            spec.put("clusterIP", Json.of(clusterIPs.getFirst()));
            spec.put("clusterIPs", Fixtures.strings(clusterIPs));
        }
        if (!ipFamilies.isEmpty()) {
            spec.put("ipFamilies", Fixtures.strings(ipFamilies));
        }
        if (!ports.isEmpty()) {
            spec.put("ports", Json.arr(ports));
        }
        if (!externalIPs.isEmpty()) {
            spec.put("externalIPs", Fixtures.strings(externalIPs));
        }
        if (!sourceRanges.isEmpty()) {
            spec.put("loadBalancerSourceRanges", Fixtures.strings(sourceRanges));
        }
        if (externalTrafficPolicy != null) {
            spec.put("externalTrafficPolicy", Json.of(externalTrafficPolicy));
        }
        if (internalTrafficPolicy != null) {
            spec.put("internalTrafficPolicy", Json.of(internalTrafficPolicy));
        }
        if (healthCheckNodePort != 0) {
            spec.put("healthCheckNodePort", Json.of(healthCheckNodePort));
        }
        if (affinityTimeout >= 0) {
            spec.put("sessionAffinity", Json.of("ClientIP"));
            spec.put("sessionAffinityConfig", Json.obj("clientIP", Json.obj("timeoutSeconds", Json.of(affinityTimeout))));
        } else {
            spec.put("sessionAffinity", Json.of("None"));
        }
        if (externalName != null) {
            spec.put("externalName", Json.of(externalName));
        }
        Json.Obj status = ingress.isEmpty() ? Json.Obj.EMPTY : Json.obj("loadBalancer", Json.obj("ingress", Json.arr(ingress)));
        return Json.obj(
                "apiVersion", Json.of("v1"),
                "kind", Json.of("Service"),
                "metadata", Fixtures.metadata(namespace, name, resourceVersion, labels, annotations),
                "spec", new Json.Obj(spec),
                "status", status);
    }

    /** The observation of this object. */
    public ServiceObserved observed() {
        return new ServiceObserved(ref(), resourceVersion, build());
    }
}
