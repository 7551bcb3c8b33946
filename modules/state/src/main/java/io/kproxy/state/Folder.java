package io.kproxy.state;

import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.EndpointSliceDeleted;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.LocalAddressesObserved;
import io.kproxy.events.Envelope;
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
import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.ServiceRef;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The fold on {@link ClusterState}: one record in, the next state out, plus which Services it
 * touched (for the incremental projection) and what it skipped. Pure; never throws for a bad
 * object.
 */
final class Folder {

    private Folder() {
    }

    /**
     * @param touched    services whose spec or slices may have changed
     * @param everything every service's projection may have changed (the node name changed)
     */
    record Result(ClusterState cluster, Set<ServiceRef> touched, boolean everything, List<Rejection> rejections) {
    }

    static Result fold(ClusterState c, Envelope record) {
        long offset = record.offset();
        return switch (record.event()) {
            case ServiceObserved e -> {
                Problems p = new Problems(offset, "Service", e.service().toString());
                ServiceSpec spec = ServiceParser.parse(e.service(), new Origin(offset, e.resourceVersion()), e.object(), p);
                yield new Result(c.withServices(c.services.plus(e.service(), spec)), Set.of(e.service()), false, p.list());
            }
            case ServiceDeleted e -> new Result(c.withServices(c.services.minus(e.service())), Set.of(e.service()), false, List.of());
            case EndpointSliceObserved e -> {
                Problems p = new Problems(offset, "EndpointSlice", e.slice().toString());
                Optional<SliceSpec> spec = SliceParser.parse(e.slice(), new Origin(offset, e.resourceVersion()), e.object(), p);
                SliceSpec old = c.slices.get(e.slice());
                if (spec.isPresent() && old != null && old.service().equals(spec.get().service())) {
                    // The common update: same slice, same service; replace it in place.
                    yield new Result(addSlice(c, spec.get(), new TreeSet<>()), Set.of(old.service()), false, p.list());
                }
                Set<ServiceRef> touched = new TreeSet<>();
                ClusterState next = removeSlice(c, e.slice(), touched);
                if (spec.isPresent()) {
                    next = addSlice(next, spec.get(), touched);
                }
                yield new Result(next, touched, false, p.list());
            }
            case EndpointSliceDeleted e -> {
                Set<ServiceRef> touched = new TreeSet<>();
                yield new Result(removeSlice(c, e.slice(), touched), touched, false, List.of());
            }
            case NodeObserved e -> {
                Problems p = new Problems(offset, "Node", e.node().value());
                if (!c.nodeName().isEmpty() && !c.nodeName().equals(e.node().value())) {
                    p.add("metadata.name", "not this proxy's node (" + c.nodeName() + "); ignored");
                    yield new Result(c, Set.of(), false, p.list());
                }
                NodeSpec node = NodeParser.parse(e.node().value(), new Origin(offset, e.resourceVersion()), e.object(), p)
                        .withLocalAddresses(c.node.localAddresses());
                yield new Result(c.withNode(node), Set.of(), false, p.list());
            }
            case NodeDeleted e -> {
                if (!c.nodeName().isEmpty() && !c.nodeName().equals(e.node().value())) {
                    Problems p = new Problems(offset, "Node", e.node().value());
                    p.add("metadata.name", "not this proxy's node (" + c.nodeName() + "); ignored");
                    yield new Result(c, Set.of(), false, p.list());
                }
                NodeSpec gone = new NodeSpec(e.node().value(), List.of(), false, "", List.of(), List.of(), true, c.node.localAddresses())
                        .deletedAt(new Origin(offset, e.resourceVersion()));
                yield new Result(c.withNode(gone), Set.of(), false, List.of());
            }
            case ServiceCIDRObserved e -> {
                Problems p = new Problems(offset, "ServiceCIDR", e.name());
                ServiceCidrSpec spec = ServiceCidrSpec.parse(e.name(), new Origin(offset, e.resourceVersion()), e.object(), p);
                yield new Result(c.withServiceCidrs(c.serviceCidrs.plus(e.name(), spec)), Set.of(), false, p.list());
            }
            case ServiceCIDRDeleted e -> new Result(c.withServiceCidrs(c.serviceCidrs.minus(e.name())), Set.of(), false, List.of());
            case SourceSynced e -> new Result(synced(c, e.kind()), Set.of(), false, List.of());
            case SourceRelisted e -> relisted(synced(c, e.kind()), e, offset);
            case ConfigRecorded e -> {
                Problems p = new Problems(offset, "Config", "config");
                ProxySettings settings = RecordedSettings.read(e.node().value(), e.config(), p);
                // A Node folded under another name is not this node's.
                NodeSpec node = c.node.name().isEmpty() || c.node.name().equals(settings.nodeName()) ? c.node : NodeSpec.UNSEEN;
                boolean renamed = !settings.nodeName().equals(c.nodeName());
                yield new Result(c.withSettings(settings, offset, node), Set.of(), renamed, p.list());
            }
            case SyncApplied e -> unchanged(c);
            case SyncFailed e -> unchanged(c);
            case DataplanePinned e -> pinned(c, e, offset);
            case DataplaneUnpinned e -> new Result(c.withPin(null), Set.of(), false, List.of());
            case LocalAddressesObserved e -> {
                if (!c.nodeName().isEmpty() && !c.nodeName().equals(e.node().value())) {
                    Problems p = new Problems(offset, "LocalAddresses", e.node().value());
                    p.add("node", "not this proxy's node (" + c.nodeName() + "); ignored");
                    yield new Result(c, Set.of(), false, p.list());
                }
                yield new Result(c.withNode(c.node.withLocalAddresses(e.addresses())), Set.of(), false, List.of());
            }
        };
    }

    /**
     * A pin replaces the one in force (a second rollback re-pins). A pin that does not point
     * before its own record cannot have been resolved by an agent (a crafted or damaged journal):
     * it is skipped with a rejection, never a crash.
     */
    private static Result pinned(ClusterState c, DataplanePinned e, long offset) {
        if (e.toOffset() >= offset) {
            return new Result(c, Set.of(), false, List.of(new Rejection(offset, "Pin", "dataplane", "toOffset",
                    "pins offset " + e.toOffset() + ", which is not before the pin's own record " + offset + "; ignored")));
        }
        return new Result(c.withPin(new Pin(e.toOffset(), offset, e.reason())), Set.of(), false, List.of());
    }

    private static Result unchanged(ClusterState c) {
        return new Result(c, Set.of(), false, List.of());
    }

    private static ClusterState synced(ClusterState c, ResourceKind kind) {
        return switch (kind) {
            case SERVICE -> c.withSynced(true, c.slicesSynced, c.nodesSynced);
            case ENDPOINT_SLICE -> c.withSynced(c.servicesSynced, true, c.nodesSynced);
            case NODE -> c.withSynced(c.servicesSynced, c.slicesSynced, true);
            // Never a barrier for programming (NodeState.synced): the API server may not serve
            // ServiceCIDRs, and until the fold holds one the configured ranges are in force
            // (ServiceRanges). Kept for the source's restart without noise.
            case SERVICE_CIDR -> c.withServiceCidrsSynced();
        };
    }

    private static ClusterState removeSlice(ClusterState c, EndpointSliceRef ref, Set<ServiceRef> touched) {
        SliceSpec old = c.slices.get(ref);
        if (old == null) {
            return c;
        }
        touched.add(old.service());
        PersistentMap<EndpointSliceRef, SliceSpec> group = c.slicesOf(old.service()).minus(ref);
        var byService = group.isEmpty() ? c.slicesByService.minus(old.service()) : c.slicesByService.plus(old.service(), group);
        return c.withSlices(c.slices.minus(ref), byService);
    }

    private static ClusterState addSlice(ClusterState c, SliceSpec spec, Set<ServiceRef> touched) {
        touched.add(spec.service());
        PersistentMap<EndpointSliceRef, SliceSpec> group = c.slicesOf(spec.service()).plus(spec.ref(), spec);
        return c.withSlices(c.slices.plus(spec.ref(), spec), c.slicesByService.plus(spec.service(), group));
    }

    /** Drops what the relist no longer lists, as if each had been deleted with its final state unknown. */
    private static Result relisted(ClusterState c, SourceRelisted e, long offset) {
        Set<String> present = e.keysPresent();
        Set<ServiceRef> touched = new TreeSet<>();
        ClusterState next = c;
        switch (e.kind()) {
            case SERVICE -> {
                var services = c.services;
                for (ServiceRef ref : c.services.keySet()) {
                    if (!present.contains(ref.toString())) {
                        services = services.minus(ref);
                        touched.add(ref);
                    }
                }
                next = c.withServices(services);
            }
            case ENDPOINT_SLICE -> {
                for (EndpointSliceRef ref : c.slices.keySet()) {
                    if (!present.contains(ref.toString())) {
                        next = removeSlice(next, ref, touched);
                    }
                }
            }
            case NODE -> {
                if (c.node.observed() && !present.contains(c.node.name())) {
                    next = c.withNode(c.node.deletedAt(new Origin(offset, e.resourceVersion())));
                }
            }
            case SERVICE_CIDR -> {
                var serviceCidrs = c.serviceCidrs;
                for (String name : c.serviceCidrs.keySet()) {
                    if (!present.contains(name)) {
                        serviceCidrs = serviceCidrs.minus(name);
                    }
                }
                next = c.withServiceCidrs(serviceCidrs);
            }
        }
        return new Result(next, touched, false, List.of());
    }
}
