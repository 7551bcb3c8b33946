package io.kproxy.backend.nftables;

/**
 * One element of a shared set or map ({@code cluster-ips}, {@code service-ips}, ...): its key in
 * nft syntax ({@code 172.30.0.41 . tcp . 80}), its value ({@code goto service-...}, {@code drop};
 * empty for a set) and its comment (empty for none), made safe between quotes by
 * {@link Comments#text} here, so that the text, the netlink path and the diff all see the same.
 */
record NftElement(String container, String key, String value, String comment) {

    NftElement {
        comment = Comments.text(comment);
    }

    /** The identity of the element: container and key. */
    ElementKey id() {
        return new ElementKey(container, key);
    }

    /** Value and comment, what a change of the element compares. */
    String payload() {
        return value + "\u0000" + comment;
    }

    /** {@code { key [comment "c"] [: value] }}. */
    String body() {
        StringBuilder b = new StringBuilder("{ ").append(key);
        if (!comment.isEmpty()) {
            b.append(" comment \"").append(comment).append('"');
        }
        if (!value.isEmpty()) {
            b.append(" : ").append(value);
        }
        return b.append(" }").toString();
    }

    /** Container and key; sorted by container, then key text. */
    record ElementKey(String container, String key) implements Comparable<ElementKey> {
        @Override
        public int compareTo(ElementKey o) {
            // Containers are a handful of literals: the same one is nearly always the same object.
            int c = container == o.container ? 0 : container.compareTo(o.container);
            return c != 0 ? c : key.compareTo(o.key);
        }
    }
}
