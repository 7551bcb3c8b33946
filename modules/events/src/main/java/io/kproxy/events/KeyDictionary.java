package io.kproxy.events;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Object keys that Kubernetes objects repeat in every record, each written as one byte. Format
 * version 1 freezes this list: entries are never removed or reordered (old records refer to them
 * by index). A new key may only be added together with a new format version.
 */
final class KeyDictionary {

    static final List<String> V1 = List.of(
            "apiVersion", "kind", "metadata", "name", "namespace", "uid", "resourceVersion", "generation",
            "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations",
            "ownerReferences", "finalizers", "controller", "blockOwnerDeletion", "spec", "status",
            // Service
            "ports", "port", "protocol", "targetPort", "nodePort", "appProtocol", "selector", "clusterIP",
            "clusterIPs", "type", "sessionAffinity", "sessionAffinityConfig", "clientIP", "timeoutSeconds",
            "externalIPs", "externalName", "externalTrafficPolicy", "internalTrafficPolicy", "healthCheckNodePort",
            "ipFamilies", "ipFamilyPolicy", "loadBalancerIP", "loadBalancerSourceRanges", "loadBalancerClass",
            "allocateLoadBalancerNodePorts", "publishNotReadyAddresses", "trafficDistribution", "loadBalancer",
            "ingress", "ip", "ipMode", "hostname", "conditions",
            // EndpointSlice
            "addressType", "endpoints", "addresses", "ready", "serving", "terminating", "nodeName", "zone",
            "hints", "forZones", "forNodes", "targetRef", "fieldPath",
            // Node
            "podCIDR", "podCIDRs", "providerID", "taints", "key", "value", "effect", "timeAdded", "unschedulable",
            "address", "nodeInfo", "allocatable", "capacity", "lastHeartbeatTime", "lastTransitionTime", "reason",
            "message", "daemonEndpoints", "images",
            // labels and annotations kproxy reads
            "kubernetes.io/service-name", "endpointslice.kubernetes.io/managed-by",
            "endpoints.kubernetes.io/last-change-trigger-time", "topology.kubernetes.io/zone",
            "topology.kubernetes.io/region", "kubernetes.io/hostname", "kubernetes.io/os", "kubernetes.io/arch",
            "service.kubernetes.io/service-proxy-name", "service.kubernetes.io/headless", "app",
            "app.kubernetes.io/name");

    /** {@link #V1} as an array: the decoder looks keys up by index for every field it reads. */
    private static final String[] KEYS = V1.toArray(new String[0]);

    private static final Map<String, Integer> INDEX = new HashMap<>();

    static {
        for (int i = 0; i < V1.size(); i++) {
            if (INDEX.put(V1.get(i), i) != null) {
                throw new ExceptionInInitializerError("duplicate dictionary key " + V1.get(i));
            }
        }
    }

    private KeyDictionary() {
    }

    /** The number of keys in the dictionary. */
    static int size() {
        return KEYS.length;
    }

    /** The key at {@code index}, which must be in {@code [0, size())}. */
    static String get(int index) {
        return KEYS[index];
    }

    /** Index of {@code key} in the dictionary, or -1. */
    static int indexOf(String key) {
        Integer i = INDEX.get(key);
        return i == null ? -1 : i;
    }
}
