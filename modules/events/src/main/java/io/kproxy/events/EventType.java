package io.kproxy.events;

/**
 * The wire tag of each event type. Tags are part of the record format: never renumber or reuse
 * one; a new event type takes a new tag.
 */
public enum EventType {
    SERVICE_OBSERVED(1),
    SERVICE_DELETED(2),
    ENDPOINT_SLICE_OBSERVED(3),
    ENDPOINT_SLICE_DELETED(4),
    NODE_OBSERVED(5),
    NODE_DELETED(6),
    SOURCE_SYNCED(7),
    SOURCE_RELISTED(8),
    CONFIG_RECORDED(9),
    SYNC_APPLIED(10),
    SYNC_FAILED(11),
    DATAPLANE_PINNED(12),
    DATAPLANE_UNPINNED(13),
    SERVICE_CIDR_OBSERVED(14),
    SERVICE_CIDR_DELETED(15),
    LOCAL_ADDRESSES_OBSERVED(16);

    private static final EventType[] BY_TAG = new EventType[32];

    static {
        for (EventType t : values()) {
            BY_TAG[t.tag] = t;
        }
    }

    private final int tag;

    EventType(int tag) {
        this.tag = tag;
    }

    /** The byte written on the wire. */
    public int tag() {
        return tag;
    }

    /** The type for a wire tag, or null when the tag is unknown (the codec turns that into an error). */
    static EventType byTag(int tag) {
        return tag > 0 && tag < BY_TAG.length ? BY_TAG[tag] : null;
    }
}
