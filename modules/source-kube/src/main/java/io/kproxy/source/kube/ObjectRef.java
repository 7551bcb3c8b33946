package io.kproxy.source.kube;

import java.util.Objects;

/**
 * The object an Event is about (the Event's {@code regarding}), as upstream kube-proxy builds it:
 * a Node reference whose UID is the node's name ({@code cmd/kube-proxy/app/server.go},
 * {@code NodeRef}), a Service reference whose UID is {@code namespace/name}
 * ({@code pkg/proxy/healthcheck/service_health.go}). Upstream leaves {@code apiVersion} empty in
 * both; so does this. Immutable; no null component ("" for none).
 *
 * @param apiVersion the referenced object's API version, or ""
 * @param kind       its kind, never empty
 * @param namespace  its namespace, "" for a cluster-scoped object (the Event then goes to {@code default})
 * @param name       its name, never empty
 * @param uid        its UID as upstream fills it
 */
public record ObjectRef(String apiVersion, String kind, String namespace, String name, String uid) {

    public ObjectRef {
        Objects.requireNonNull(apiVersion, "apiVersion");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(uid, "uid");
        if (kind == null || kind.isEmpty() || name == null || name.isEmpty()) {
            throw new IllegalArgumentException("an event's object needs a kind and a name");
        }
    }

    /** This node, as upstream's {@code NodeRef}: kind Node, the name, UID = the name. */
    public static ObjectRef node(String name) {
        return new ObjectRef("", "Node", "", name, name);
    }

    /** A Service, as upstream's health-check server names it: UID = {@code namespace/name}. */
    public static ObjectRef service(String namespace, String name) {
        return new ObjectRef("", "Service", namespace, name, namespace + "/" + name);
    }

    /** The namespace the Event is written to: the object's, or {@code default} for a cluster-scoped one (client-go's makeEvent). */
    public String eventNamespace() {
        return namespace.isEmpty() ? "default" : namespace;
    }

    @Override
    public String toString() {
        return kind + "/" + (namespace.isEmpty() ? "" : namespace + "/") + name;
    }
}
