package io.kproxy.ui;

/**
 * Something the timeline marks: a failed sync, a pin, a relist, a configuration, a change or
 * delete of a Service's spec, a quiet gap of the source, a damaged range. Immutable; no null
 * components.
 *
 * @param kind    what it is ({@code failed-sync}, {@code pin}, {@code unpin}, {@code relist},
 *                {@code config}, {@code service-changed}, {@code service-deleted}, {@code gap},
 *                {@code damaged})
 * @param startMs when it happened (epoch milliseconds), or when a gap or damaged range begins
 * @param endMs   when a gap or damaged range ends; {@code startMs} for a single record
 * @param offset  the record's offset; for a damaged range its first lost offset; -1 for a gap
 * @param service the Service it is about ({@code ns/name}), or ""
 * @param label   one line saying what happened
 */
record Mark(String kind, long startMs, long endMs, long offset, String service, String label) {

    Mark {
        if (kind == null || service == null || label == null || endMs < startMs) {
            throw new IllegalArgumentException("a mark needs a kind, a service (or \"\"), a label and endMs >= startMs");
        }
    }

    /** Which marks survive when a range holds more than asked for: damage and failures first, spec changes last. */
    int priority() {
        return switch (kind) {
            case "damaged" -> 0;
            case "failed-sync" -> 1;
            case "pin", "unpin" -> 2;
            case "gap" -> 3;
            case "relist", "config" -> 4;
            case "service-deleted" -> 5;
            default -> 6;
        };
    }

    void write(JsonOut out) {
        out.beginObject().field("kind", kind).field("start", startMs).field("end", endMs).field("offset", offset)
                .field("service", service).field("label", label).endObject();
    }
}
