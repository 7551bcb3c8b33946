package io.kproxy.model;

/** A Service's identity: namespace and name, both DNS-1123 labels. Prints as {@code ns/name}. */
public record ServiceRef(String namespace, String name) implements Comparable<ServiceRef> {

    public ServiceRef {
        Names.label("metadata.namespace", namespace);
        Names.label("metadata.name", name);
    }

    /** Parses {@code namespace/name}. */
    public static ServiceRef parse(String text) {
        int slash = text == null ? -1 : text.indexOf('/');
        if (slash < 0) {
            throw new InvalidValueException("service", text, "expected namespace/name");
        }
        return new ServiceRef(text.substring(0, slash), text.substring(slash + 1));
    }

    @Override
    public int compareTo(ServiceRef o) {
        int c = namespace.compareTo(o.namespace);
        return c != 0 ? c : name.compareTo(o.name);
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
