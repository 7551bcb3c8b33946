package io.kproxy.history;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.EndpointSliceDeleted;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.LocalAddressesObserved;
import io.kproxy.events.NodeDeleted;
import io.kproxy.events.NodeObserved;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.ServiceCIDRDeleted;
import io.kproxy.events.ServiceCIDRObserved;
import io.kproxy.events.ServiceDeleted;
import io.kproxy.events.ServiceObserved;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import io.kproxy.model.ServiceRef;
import io.kproxy.state.ClusterState;
import io.kproxy.state.FoldStep;

/**
 * Which records are about which Service, decided from the fold's own view (so that a slice's
 * Service is the one the fold filed it under, label parsing and all): the Service's own
 * observations and deletes; observations of a slice filed under it before or after the record
 * (a slice can move); deletes of a slice filed under it; a relist that dropped the Service or one
 * of its slices. Node-wide records are the configuration, this node's Node, and whatever changed
 * node-level state; ServiceCIDRs (the service ranges) are node-wide too. Pure.
 */
final class Touches {

    private Touches() {
    }

    /** Whether the record ({@code before} → {@code after}) is about {@code service}. */
    static boolean service(ClusterState before, ClusterState after, ClusterEvent event, ServiceRef service) {
        return switch (event) {
            case ServiceObserved e -> e.service().equals(service);
            case ServiceDeleted e -> e.service().equals(service);
            case EndpointSliceObserved e -> before.sliceOrigins(service).containsKey(e.slice()) || after.sliceOrigins(service).containsKey(e.slice());
            case EndpointSliceDeleted e -> before.sliceOrigins(service).containsKey(e.slice());
            case SourceRelisted e -> switch (e.kind()) {
                case SERVICE -> before.serviceOrigin(service).isPresent() && after.serviceOrigin(service).isEmpty();
                case ENDPOINT_SLICE -> !after.sliceOrigins(service).keySet().containsAll(before.sliceOrigins(service).keySet());
                case NODE, SERVICE_CIDR -> false;
            };
            case NodeObserved e -> false;
            case NodeDeleted e -> false;
            case ServiceCIDRObserved e -> false;
            case ServiceCIDRDeleted e -> false;
            case SourceSynced e -> false;
            case ConfigRecorded e -> false;
            case SyncApplied e -> false;
            case SyncFailed e -> false;
            case DataplanePinned e -> false;
            case DataplaneUnpinned e -> false;
            case LocalAddressesObserved e -> false;
        };
    }

    /** Whether a fold step is about the node as a whole (configuration, this Node, or a node-level change). */
    static boolean nodeWide(ClusterEvent event, FoldStep step) {
        boolean byType = switch (event) {
            case ConfigRecorded e -> true;
            case NodeObserved e -> true;
            case NodeDeleted e -> true;
            // The service ranges: every node-level rule that drops traffic to unallocated ClusterIPs.
            case ServiceCIDRObserved e -> true;
            case ServiceCIDRDeleted e -> true;
            case SourceRelisted e -> e.kind() == ResourceKind.NODE || e.kind() == ResourceKind.SERVICE_CIDR;
            case ServiceObserved e -> false;
            case ServiceDeleted e -> false;
            case EndpointSliceObserved e -> false;
            case EndpointSliceDeleted e -> false;
            case SourceSynced e -> false;
            case SyncApplied e -> false;
            case SyncFailed e -> false;
            case DataplanePinned e -> false;
            case DataplaneUnpinned e -> false;
            // The node's own addresses: where ipvs mode puts NodePort virtual servers.
            case LocalAddressesObserved e -> true;
        };
        return byType || step.delta().nodeChanged() || step.delta().settingsChanged();
    }

    /** Records that concern every Service's programming: the configuration and pins. */
    static boolean everyService(ClusterEvent event) {
        return event instanceof ConfigRecorded || event instanceof DataplanePinned || event instanceof DataplaneUnpinned;
    }
}
