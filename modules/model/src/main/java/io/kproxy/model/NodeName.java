package io.kproxy.model;

/** A Node's name: a DNS-1123 subdomain. */
public record NodeName(String value) implements Comparable<NodeName> {

    public NodeName {
        Names.subdomain("nodeName", value);
    }

    @Override
    public int compareTo(NodeName o) {
        return value.compareTo(o.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
