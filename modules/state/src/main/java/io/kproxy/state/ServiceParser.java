package io.kproxy.state;

import io.kproxy.model.Cidr;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Json;
import io.kproxy.model.Port;
import io.kproxy.model.Protocol;
import io.kproxy.model.ServicePortName;
import io.kproxy.model.ServiceRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Turns an observed Service object into a {@link ServiceSpec}, applying upstream's service-level
 * rules: {@code ShouldSkipService} and the informer label selector ({@code pkg/proxy/util/utils.go},
 * {@code cmd/kube-proxy/app/server.go}), {@code GetClusterIPByFamily}, and newBaseServiceInfo
 * ({@code pkg/proxy/serviceport.go}). Malformed parts are skipped and reported, never thrown.
 */
final class ServiceParser {

    static final String LABEL_PROXY_NAME = "service.kubernetes.io/service-proxy-name";
    static final String LABEL_HEADLESS = "service.kubernetes.io/headless";
    /** The apiserver's default {@code sessionAffinityConfig.clientIP.timeoutSeconds}. */
    static final int DEFAULT_AFFINITY_SECONDS = 10800;
    private static final int MAX_AFFINITY_SECONDS = 86400;

    private ServiceParser() {
    }

    static ServiceSpec parse(ServiceRef ref, Origin origin, Json.Obj object, Problems p) {
        Json.Obj labels = JsonRead.object(JsonRead.object(object, "metadata", "metadata", p), "labels", "metadata.labels", p);
        if (labels.fields().containsKey(LABEL_PROXY_NAME)) {
            return ServiceSpec.skipped(ref, origin, "label " + LABEL_PROXY_NAME + " (another proxy serves it)");
        }
        if (labels.fields().containsKey(LABEL_HEADLESS)) {
            return ServiceSpec.skipped(ref, origin, "label " + LABEL_HEADLESS);
        }
        Json.Obj spec = JsonRead.object(object, "spec", "spec", p);
        String type = JsonRead.string(spec, "type", "spec.type", p).orElse("ClusterIP");
        String clusterIP = JsonRead.string(spec, "clusterIP", "spec.clusterIP", p).orElse("");
        if (clusterIP.isEmpty() || clusterIP.equals("None")) {
            return ServiceSpec.skipped(ref, origin, clusterIP.isEmpty() ? "no cluster IP" : "headless (clusterIP: None)");
        }
        if (type.equals("ExternalName")) {
            return ServiceSpec.skipped(ref, origin, "type ExternalName");
        }
        List<IpAddress> clusterIPs = clusterIPs(spec, clusterIP, p);
        if (clusterIPs == null) {
            return ServiceSpec.skipped(ref, origin, "invalid cluster IP");
        }
        List<String> externalIPText = JsonRead.strings(spec, "externalIPs", "spec.externalIPs", p);
        // pkg/api/v1/service/util.go ExternallyAccessible / ExternalPolicyLocal / NeedsHealthCheck.
        boolean externallyAccessible = type.equals("LoadBalancer") || type.equals("NodePort")
                || (type.equals("ClusterIP") && !externalIPText.isEmpty());
        String etp = JsonRead.string(spec, "externalTrafficPolicy", "spec.externalTrafficPolicy", p).orElse("");
        boolean externalPolicyLocal = externallyAccessible && etp.equals("Local");
        boolean internalPolicyLocal = JsonRead.string(spec, "internalTrafficPolicy", "spec.internalTrafficPolicy", p).orElse("")
                .equals("Local");
        int healthCheckNodePort = 0;
        if (type.equals("LoadBalancer") && externalPolicyLocal) {
            healthCheckNodePort = nodePort(spec, "healthCheckNodePort", "spec.healthCheckNodePort", p);
            if (healthCheckNodePort == 0) {
                p.add("spec.healthCheckNodePort", "LoadBalancer with externalTrafficPolicy Local has no health check node port");
            }
        }
        return new ServiceSpec(ref, origin, "", clusterIPs, ports(ref, spec, p), ips(externalIPText, "spec.externalIPs", p),
                loadBalancerVIPs(object, p), sourceRanges(spec, p), externalPolicyLocal, internalPolicyLocal, healthCheckNodePort,
                affinity(spec, p));
    }

    /** The cluster IP of each family (GetClusterIPByFamily), or null when one does not parse. */
    private static List<IpAddress> clusterIPs(Json.Obj spec, String clusterIP, Problems p) {
        List<String> families = JsonRead.strings(spec, "ipFamilies", "spec.ipFamilies", p);
        List<IpAddress> out = new ArrayList<>(2);
        if (families.isEmpty()) {
            // Skew: an old object without ipFamilies; spec.clusterIP serves its own family.
            IpAddress ip = parseClusterIP("spec.clusterIP", clusterIP, null, p);
            return ip == null ? null : List.of(ip);
        }
        List<String> ips = JsonRead.strings(spec, "clusterIPs", "spec.clusterIPs", p);
        for (int i = 0; i < families.size(); i++) {
            IpFamily family;
            try {
                family = IpFamily.parse("spec.ipFamilies[" + i + "]", families.get(i));
            } catch (InvalidValueException e) {
                p.add("spec.ipFamilies[" + i + "]", e, "ignored");
                continue;
            }
            if (i >= ips.size() || out.stream().anyMatch(a -> a.family() == family)) {
                continue; // the first match wins, as upstream's loop returns on it
            }
            IpAddress ip = parseClusterIP("spec.clusterIPs[" + i + "]", ips.get(i), family, p);
            if (ip == null) {
                return null;
            }
            out.add(ip);
        }
        return out;
    }

    private static IpAddress parseClusterIP(String field, String text, IpFamily expected, Problems p) {
        try {
            IpAddress ip = IpAddress.parse(field, text);
            if (expected != null && ip.family() != expected) {
                p.add(field, "cluster IP " + text + " is not " + expected.apiName() + " as spec.ipFamilies says; service skipped");
                return null;
            }
            return ip;
        } catch (InvalidValueException e) {
            p.add(field, e, "service skipped");
            return null;
        }
    }

    private static List<ServiceSpec.PortSpec> ports(ServiceRef ref, Json.Obj spec, Problems p) {
        List<Json.Obj> items = JsonRead.objects(spec, "ports", "spec.ports", p);
        Map<ServicePortName, ServiceSpec.PortSpec> byKey = new LinkedHashMap<>();
        for (int i = 0; i < items.size(); i++) {
            String at = "spec.ports[" + i + "]";
            Json.Obj item = items.get(i);
            String name = JsonRead.string(item, "name", at + ".name", p).orElse("");
            OptionalLong number = JsonRead.integer(item, "port", at + ".port", p);
            if (number.isEmpty()) {
                p.add(at + ".port", "port is required; port skipped");
                continue;
            }
            try {
                Protocol protocol = Protocol.parse(at + ".protocol", JsonRead.string(item, "protocol", at + ".protocol", p).orElse("TCP"));
                ServicePortName key = new ServicePortName(ref, name, protocol);
                Port port = Port.of(at + ".port", number.getAsLong());
                int nodePort = nodePort(item, "nodePort", at + ".nodePort", p);
                if (byKey.put(key, new ServiceSpec.PortSpec(name, protocol, port, nodePort)) != null) {
                    p.add(at, "duplicate port name and protocol; the later one wins");
                }
            } catch (InvalidValueException e) {
                p.add(e.field().startsWith(at) ? e.field() : at + "." + e.field(), e, "port skipped");
            }
        }
        return List.copyOf(byKey.values());
    }

    /** A node port, or 0 when absent; an out-of-range value is reported and treated as absent. */
    private static int nodePort(Json.Obj o, String key, String field, Problems p) {
        OptionalLong v = JsonRead.integer(o, key, field, p);
        if (v.isEmpty() || v.getAsLong() == 0) {
            return 0;
        }
        if (v.getAsLong() < 1 || v.getAsLong() > 65535) {
            p.add(field, "must be between 1 and 65535; treated as unset");
            return 0;
        }
        return (int) v.getAsLong();
    }

    static List<IpAddress> ips(List<String> texts, String field, Problems p) {
        List<IpAddress> out = new ArrayList<>(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            try {
                out.add(IpAddress.parse(field, texts.get(i)));
            } catch (InvalidValueException e) {
                p.add(field + "[" + i + "]", e, "ignored");
            }
        }
        return out;
    }

    /** {@code status.loadBalancer.ingress[].ip} in VIP mode (proxyutil.IsVIPMode); hostname-only entries are ignored. */
    private static List<IpAddress> loadBalancerVIPs(Json.Obj object, Problems p) {
        Json.Obj lb = JsonRead.object(JsonRead.object(object, "status", "status", p), "loadBalancer", "status.loadBalancer", p);
        List<Json.Obj> ingress = JsonRead.objects(lb, "ingress", "status.loadBalancer.ingress", p);
        List<IpAddress> out = new ArrayList<>(ingress.size());
        for (int i = 0; i < ingress.size(); i++) {
            String at = "status.loadBalancer.ingress[" + i + "]";
            String ip = JsonRead.string(ingress.get(i), "ip", at + ".ip", p).orElse("");
            String ipMode = JsonRead.string(ingress.get(i), "ipMode", at + ".ipMode", p).orElse("VIP");
            if (ip.isEmpty() || !ipMode.equals("VIP")) {
                continue;
            }
            try {
                out.add(IpAddress.parse(at + ".ip", ip));
            } catch (InvalidValueException e) {
                p.add(at + ".ip", e, "ignored");
            }
        }
        return out;
    }

    /** {@code loadBalancerSourceRanges}, blanks trimmed (validation tolerates padding). */
    private static List<Cidr> sourceRanges(Json.Obj spec, Problems p) {
        List<String> texts = JsonRead.strings(spec, "loadBalancerSourceRanges", "spec.loadBalancerSourceRanges", p);
        List<Cidr> out = new ArrayList<>(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            try {
                out.add(Cidr.parse("spec.loadBalancerSourceRanges", texts.get(i).strip()));
            } catch (InvalidValueException e) {
                p.add("spec.loadBalancerSourceRanges[" + i + "]", e, "ignored");
            }
        }
        return out;
    }

    private static int affinity(Json.Obj spec, Problems p) {
        if (!JsonRead.string(spec, "sessionAffinity", "spec.sessionAffinity", p).orElse("None").equals("ClientIP")) {
            return 0;
        }
        String field = "spec.sessionAffinityConfig.clientIP.timeoutSeconds";
        Json.Obj clientIP = JsonRead.object(JsonRead.object(spec, "sessionAffinityConfig", "spec.sessionAffinityConfig", p), "clientIP",
                "spec.sessionAffinityConfig.clientIP", p);
        OptionalLong t = JsonRead.integer(clientIP, "timeoutSeconds", field, p);
        if (t.isEmpty()) {
            return DEFAULT_AFFINITY_SECONDS;
        }
        if (t.getAsLong() < 1 || t.getAsLong() > MAX_AFFINITY_SECONDS) {
            p.add(field, "must be between 1 and " + MAX_AFFINITY_SECONDS + "; using " + DEFAULT_AFFINITY_SECONDS);
            return DEFAULT_AFFINITY_SECONDS;
        }
        return (int) t.getAsLong();
    }
}
