package io.kproxy.model;

/** An EndpointSlice's identity: namespace (a label) and name (a DNS-1123 subdomain). */
public record EndpointSliceRef(String namespace, String name) implements Comparable<EndpointSliceRef> {

    public EndpointSliceRef {
        Names.label("metadata.namespace", namespace);
        Names.subdomain("metadata.name", name);
    }

    @Override
    public int compareTo(EndpointSliceRef o) {
        int c = namespace.compareTo(o.namespace);
        return c != 0 ? c : name.compareTo(o.name);
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
