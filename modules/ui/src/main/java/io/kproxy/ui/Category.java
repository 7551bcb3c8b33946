package io.kproxy.ui;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.EndpointSliceDeleted;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.LocalAddressesObserved;
import io.kproxy.events.NodeDeleted;
import io.kproxy.events.NodeObserved;
import io.kproxy.events.ServiceCIDRDeleted;
import io.kproxy.events.ServiceCIDRObserved;
import io.kproxy.events.ServiceDeleted;
import io.kproxy.events.ServiceObserved;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import io.kproxy.events.SyncKind;

/**
 * The rows of the page's timeline: what kind of fact a record is. Each record falls in exactly
 * one; the JSON API names them by {@link #key()}.
 */
enum Category {
    OBSERVATION("observations"),
    RELIST("relists"),
    CONFIG("config"),
    SYNC_FULL("fullSyncs"),
    SYNC_PARTIAL("partialSyncs"),
    SYNC_FAILED("failedSyncs"),
    PIN("pins");

    private static final Category[] VALUES = values();
    private final String key;

    Category(String key) {
        this.key = key;
    }

    String key() {
        return key;
    }

    static Category of(int ordinal) {
        return VALUES[ordinal];
    }

    /** Whether the record came from the source (the API server's side): quiet gaps are measured between these. */
    boolean fromSource() {
        return this == OBSERVATION || this == RELIST;
    }

    static Category of(ClusterEvent event) {
        return switch (event) {
            case ServiceObserved e -> OBSERVATION;
            case ServiceDeleted e -> OBSERVATION;
            case EndpointSliceObserved e -> OBSERVATION;
            case EndpointSliceDeleted e -> OBSERVATION;
            case NodeObserved e -> OBSERVATION;
            case NodeDeleted e -> OBSERVATION;
            case ServiceCIDRObserved e -> OBSERVATION;
            case ServiceCIDRDeleted e -> OBSERVATION;
            case SourceSynced e -> RELIST;
            case SourceRelisted e -> RELIST;
            case ConfigRecorded e -> CONFIG;
            // the node's own facts, read by its agent (ipvs mode's local addresses), not the API server's
            case LocalAddressesObserved e -> CONFIG;
            case SyncApplied e -> e.kind() == SyncKind.FULL ? SYNC_FULL : SYNC_PARTIAL;
            case SyncFailed e -> SYNC_FAILED;
            case DataplanePinned e -> PIN;
            case DataplaneUnpinned e -> PIN;
        };
    }
}
