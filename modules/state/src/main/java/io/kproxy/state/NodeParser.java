package io.kproxy.state;

import io.kproxy.model.Cidr;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.IpAddress;
import io.kproxy.model.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads what kube-proxy uses of its own Node: the zone label (topology), the primary IPs
 * ({@code GetNodeHostIPs}, {@code pkg/util/node}), the pod CIDRs ({@code detectLocalMode:
 * NodeCIDR}) and eligibility ({@code pkg/proxy/healthcheck/proxy_health.go} SyncNode, KEP-3836).
 */
final class NodeParser {

    static final String LABEL_ZONE = "topology.kubernetes.io/zone";
    static final String TAINT_TO_BE_DELETED = "ToBeDeletedByClusterAutoscaler";

    private NodeParser() {
    }

    static NodeSpec parse(String name, Origin origin, Json.Obj object, Problems p) {
        Json.Obj meta = JsonRead.object(object, "metadata", "metadata", p);
        Json.Obj labels = JsonRead.object(meta, "labels", "metadata.labels", p);
        String zone = JsonRead.string(labels, LABEL_ZONE, "metadata.labels[" + LABEL_ZONE + "]", p).orElse("");
        boolean eligible = JsonRead.string(meta, "deletionTimestamp", "metadata.deletionTimestamp", p).orElse("").isEmpty();
        Json.Obj spec = JsonRead.object(object, "spec", "spec", p);
        for (Json.Obj taint : JsonRead.objects(spec, "taints", "spec.taints", p)) {
            if (taint.string("key").orElse("").equals(TAINT_TO_BE_DELETED)) {
                eligible = false;
            }
        }
        List<String> podCIDRText = JsonRead.strings(spec, "podCIDRs", "spec.podCIDRs", p);
        if (podCIDRText.isEmpty()) {
            podCIDRText = JsonRead.string(spec, "podCIDR", "spec.podCIDR", p).map(List::of).orElse(List.of());
        }
        List<Cidr> podCIDRs = new ArrayList<>();
        for (int i = 0; i < podCIDRText.size(); i++) {
            try {
                podCIDRs.add(Cidr.parse("spec.podCIDRs", podCIDRText.get(i)));
            } catch (InvalidValueException e) {
                p.add("spec.podCIDRs[" + i + "]", e, "ignored");
            }
        }
        return new NodeSpec(name, List.of(origin), false, zone, primaryIPs(object, p), podCIDRs, eligible);
    }

    /** InternalIPs first, then ExternalIPs; the first address, then the first of the other family. */
    private static List<IpAddress> primaryIPs(Json.Obj object, Problems p) {
        List<Json.Obj> addresses = JsonRead.objects(JsonRead.object(object, "status", "status", p), "addresses", "status.addresses", p);
        List<IpAddress> all = new ArrayList<>();
        for (String type : List.of("InternalIP", "ExternalIP")) {
            for (int i = 0; i < addresses.size(); i++) {
                Json.Obj a = addresses.get(i);
                if (!a.string("type").orElse("").equals(type)) {
                    continue;
                }
                try {
                    all.add(IpAddress.parse("status.addresses", a.string("address").orElse("")));
                } catch (InvalidValueException e) {
                    p.add("status.addresses[" + i + "].address", e, "ignored");
                }
            }
        }
        if (all.isEmpty()) {
            return List.of();
        }
        IpAddress first = all.getFirst();
        for (IpAddress ip : all) {
            if (ip.family() != first.family()) {
                return List.of(first, ip);
            }
        }
        return List.of(first);
    }
}
