package io.kproxy.ui;

/**
 * Something the timeline marks: a failed sync, a pin, a relist, a configuration, a change or
 * delete of a Service's spec, a quiet gap of the source, a damaged range. Immutable; no null
 * components.
 *
 * @param kind    what it is
 * @param startMs when it happened (epoch milliseconds), or when a gap or damaged range begins
 * @param endMs   when a gap or damaged range ends; {@code startMs} for a single record
 * @param offset  the record's offset; for a damaged range its first lost offset; -1 for a gap
 * @param service the Service it is about ({@code ns/name}), or ""
 * @param label   one line saying what happened
 */
record Mark(Kind kind, long startMs, long endMs, long offset, String service, String label) {

    /** What a mark is, by importance: when a range holds more marks than asked for, the last kinds are dropped first. */
    enum Kind {
        DAMAGED("damaged"),
        FAILED_SYNC("failed-sync"),
        PIN("pin"),
        UNPIN("unpin"),
        GAP("gap"),
        RELIST("relist"),
        CONFIG("config"),
        SERVICE_DELETED("service-deleted"),
        SERVICE_CHANGED("service-changed");

        private final String key;

        Kind(String key) {
            this.key = key;
        }

        /** The name the API and the page use. */
        String key() {
            return key;
        }
    }

    Mark {
        if (kind == null || service == null || label == null || endMs < startMs) {
            throw new IllegalArgumentException("a mark needs a kind, a service (or \"\"), a label and endMs >= startMs");
        }
    }

    void write(JsonOut out) {
        out.beginObject().field("kind", kind.key()).field("start", startMs).field("end", endMs).field("offset", offset)
                .field("service", service).field("label", label).endObject();
    }
}
