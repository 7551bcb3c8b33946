package io.kproxy.events;

import io.kproxy.model.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code networking.k8s.io/v1} ServiceCIDR was listed or watched in this state (added or
 * updated). ServiceCIDRs are cluster-scoped; their {@code spec.cidrs} (one range, or one per
 * family) are the ranges the API server allocates ClusterIPs from, and upstream's nftables mode
 * drops traffic to the addresses of those ranges that no Service holds
 * ({@code pkg/proxy/config/config.go} ServiceCIDRConfig, {@code pkg/proxy/nftables/proxier.go}
 * OnServiceCIDRsChanged).
 *
 * <p>As every observation, it keeps the object as sent: {@code spec.cidrs} is not validated here
 * (the fold skips a range it cannot parse and says so).
 *
 * @param name            the ServiceCIDR's {@code metadata.name} (a DNS-1123 subdomain)
 * @param resourceVersion the object's {@code metadata.resourceVersion}
 * @param object          the object as the API server sent it, trimmed by {@link KubeObjects#trim}
 */
public record ServiceCIDRObserved(String name, String resourceVersion, Json.Obj object) implements ClusterEvent {

    public ServiceCIDRObserved {
        KubeObjects.requireSubdomain("name", name);
        KubeObjects.requireResourceVersion(resourceVersion);
        object = KubeObjects.trim(object);
        KubeObjects.requireIdentity("serviceCIDR", object, "", name);
    }

    /**
     * The string items of {@code spec.cidrs}, in the object's order, as sent (not parsed); empty
     * when the field is missing or not an array. Non-string items are left out.
     */
    public List<String> cidrs() {
        List<String> out = new ArrayList<>();
        for (Json item : object.object("spec").array("cidrs")) {
            if (item instanceof Json.Str(String s)) {
                out.add(s);
            }
        }
        return List.copyOf(out);
    }

    @Override
    public EventType type() {
        return EventType.SERVICE_CIDR_OBSERVED;
    }
}
