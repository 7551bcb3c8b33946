package io.kproxy.state;

import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.ServiceRef;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What the fold knows of the cluster: Services, EndpointSlices grouped per Service, this node's
 * Node, the ServiceCIDRs, the configuration in force, the sync barriers and the dataplane pin. Objects are kept parsed and compact
 * (the facts kube-proxy reads, plus the offset and resourceVersion they came from), in
 * {@link PersistentMap}s, so that a fold step costs O(log n) and every older state stays valid.
 *
 * <p>Immutable and thread-safe; accessors never return null and never block. Instances are
 * produced by {@link FoldedState}; equality is by content.
 */
public final class ClusterState {

    private static final ClusterState EMPTY = new ClusterState(ProxySettings.DEFAULT, -1, NodeSpec.UNSEEN, false, false, false,
            PersistentMap.empty(), PersistentMap.empty(), PersistentMap.empty(), PersistentMap.empty(), false, null);

    final ProxySettings settings;
    final long configOffset;
    final NodeSpec node;
    final boolean servicesSynced;
    final boolean slicesSynced;
    final boolean nodesSynced;
    final PersistentMap<ServiceRef, ServiceSpec> services;
    final PersistentMap<EndpointSliceRef, SliceSpec> slices;
    final PersistentMap<ServiceRef, PersistentMap<EndpointSliceRef, SliceSpec>> slicesByService;
    /** The ServiceCIDRs by name; their ranges replace the configured ones while any is held ({@link ServiceRanges}). */
    final PersistentMap<String, ServiceCidrSpec> serviceCidrs;
    /** ServiceCIDRs have completed a list; never a barrier for programming (see {@link #serviceCidrsSynced()}). */
    final boolean serviceCidrsSynced;
    /** The pin in force; null while the dataplane follows the live state (read through {@link #pin()}). */
    final Pin pin;

    ClusterState(ProxySettings settings, long configOffset, NodeSpec node, boolean servicesSynced, boolean slicesSynced,
            boolean nodesSynced, PersistentMap<ServiceRef, ServiceSpec> services, PersistentMap<EndpointSliceRef, SliceSpec> slices,
            PersistentMap<ServiceRef, PersistentMap<EndpointSliceRef, SliceSpec>> slicesByService,
            PersistentMap<String, ServiceCidrSpec> serviceCidrs, boolean serviceCidrsSynced, Pin pin) {
        this.settings = Objects.requireNonNull(settings);
        this.configOffset = configOffset;
        this.node = Objects.requireNonNull(node);
        this.servicesSynced = servicesSynced;
        this.slicesSynced = slicesSynced;
        this.nodesSynced = nodesSynced;
        this.services = Objects.requireNonNull(services);
        this.slices = Objects.requireNonNull(slices);
        this.slicesByService = Objects.requireNonNull(slicesByService);
        this.serviceCidrs = Objects.requireNonNull(serviceCidrs);
        this.serviceCidrsSynced = serviceCidrsSynced;
        this.pin = pin;
    }

    /** No objects, default configuration, nothing synced. */
    public static ClusterState empty() {
        return EMPTY;
    }

    /** The node this proxy runs for, from the last {@code ConfigRecorded}; "" before any. */
    public String nodeName() {
        return settings.nodeName();
    }

    /** Services have completed an initial list (or a relist). */
    public boolean servicesSynced() {
        return servicesSynced;
    }

    /** EndpointSlices have completed an initial list (or a relist). */
    public boolean endpointSlicesSynced() {
        return slicesSynced;
    }

    /** The Node informer has completed an initial list (or a relist). */
    public boolean nodeSynced() {
        return nodesSynced;
    }

    /**
     * ServiceCIDRs have completed a list (or a relist). Unlike the other barriers this one holds
     * nothing back: an API server that does not serve ServiceCIDRs never lists them, and the
     * configured service ranges are in force until a ServiceCIDR is held.
     */
    public boolean serviceCidrsSynced() {
        return serviceCidrsSynced;
    }

    /** Every Service known, skipped ones included, in key order. */
    public Set<ServiceRef> services() {
        return Collections.unmodifiableSet(services.keySet());
    }

    public int endpointSliceCount() {
        return slices.size();
    }

    /** The record that last set {@code service}, or empty when the Service is unknown. */
    public Optional<Origin> serviceOrigin(ServiceRef service) {
        ServiceSpec s = services.get(service);
        return s == null ? Optional.empty() : Optional.of(s.origin());
    }

    /** Why {@code service} gets no rules (headless, ExternalName, ...), or empty when it is proxied or unknown. */
    public Optional<String> serviceSkipReason(ServiceRef service) {
        ServiceSpec s = services.get(service);
        return s == null || !s.isSkipped() ? Optional.empty() : Optional.of(s.skipReason());
    }

    /** The slices of {@code service}, each with the record that last set it, in slice-name order. */
    public Map<EndpointSliceRef, Origin> sliceOrigins(ServiceRef service) {
        PersistentMap<EndpointSliceRef, SliceSpec> group = slicesByService.get(service);
        if (group == null) {
            return Map.of();
        }
        LinkedHashMap<EndpointSliceRef, Origin> out = new LinkedHashMap<>();
        group.forEach((ref, spec) -> out.put(ref, spec.origin()));
        return Collections.unmodifiableMap(out);
    }

    /**
     * Every EndpointSlice the fold holds, also those whose Service is unknown, each with the
     * record that last set it, in key order. O(slices).
     */
    public Map<EndpointSliceRef, Origin> sliceOrigins() {
        LinkedHashMap<EndpointSliceRef, Origin> out = new LinkedHashMap<>();
        slices.forEach((ref, spec) -> out.put(ref, spec.origin()));
        return Collections.unmodifiableMap(out);
    }

    /** The record that last set this node's Node (observed or deleted), or empty when none was folded. */
    public Optional<Origin> nodeOrigin() {
        return node.origin().stream().findFirst();
    }

    /** The offset of the {@code ConfigRecorded} in force, or empty before any. */
    public OptionalLong configOffset() {
        return configOffset < 0 ? OptionalLong.empty() : OptionalLong.of(configOffset);
    }

    /**
     * The dataplane pin in force ({@code DataplanePinned} not yet followed by
     * {@code DataplaneUnpinned}), or empty while the dataplane follows the live state. The pin
     * does not change {@link FoldedState#node()}: that is always the live projection; the engine
     * decides what to program.
     */
    public Optional<Pin> pin() {
        return Optional.ofNullable(pin);
    }

    ClusterState withPin(Pin newPin) {
        return Objects.equals(newPin, pin) ? this
                : new ClusterState(settings, configOffset, node, servicesSynced, slicesSynced, nodesSynced, services, slices,
                        slicesByService, serviceCidrs, serviceCidrsSynced, newPin);
    }

    /** Whether {@code other} holds the very same parts as this state, the pin aside (identity, O(1)). */
    boolean samePartsAs(ClusterState other) {
        return settings == other.settings && configOffset == other.configOffset && node == other.node
                && servicesSynced == other.servicesSynced && slicesSynced == other.slicesSynced && nodesSynced == other.nodesSynced
                && services == other.services && slices == other.slices && slicesByService == other.slicesByService
                && serviceCidrs == other.serviceCidrs && serviceCidrsSynced == other.serviceCidrsSynced;
    }

    ClusterState withSettings(ProxySettings newSettings, long newConfigOffset, NodeSpec newNode) {
        return new ClusterState(newSettings, newConfigOffset, newNode, servicesSynced, slicesSynced, nodesSynced, services, slices,
                slicesByService, serviceCidrs, serviceCidrsSynced, pin);
    }

    ClusterState withNode(NodeSpec newNode) {
        return new ClusterState(settings, configOffset, newNode, servicesSynced, slicesSynced, nodesSynced, services, slices,
                slicesByService, serviceCidrs, serviceCidrsSynced, pin);
    }

    ClusterState withSynced(boolean newServicesSynced, boolean newSlicesSynced, boolean newNodesSynced) {
        if (newServicesSynced == servicesSynced && newSlicesSynced == slicesSynced && newNodesSynced == nodesSynced) {
            return this;
        }
        return new ClusterState(settings, configOffset, node, newServicesSynced, newSlicesSynced, newNodesSynced, services, slices,
                slicesByService, serviceCidrs, serviceCidrsSynced, pin);
    }

    ClusterState withServices(PersistentMap<ServiceRef, ServiceSpec> newServices) {
        return newServices == services ? this
                : new ClusterState(settings, configOffset, node, servicesSynced, slicesSynced, nodesSynced, newServices, slices,
                        slicesByService, serviceCidrs, serviceCidrsSynced, pin);
    }

    ClusterState withSlices(PersistentMap<EndpointSliceRef, SliceSpec> newSlices,
            PersistentMap<ServiceRef, PersistentMap<EndpointSliceRef, SliceSpec>> newByService) {
        return newSlices == slices && newByService == slicesByService ? this
                : new ClusterState(settings, configOffset, node, servicesSynced, slicesSynced, nodesSynced, services, newSlices,
                        newByService, serviceCidrs, serviceCidrsSynced, pin);
    }

    ClusterState withServiceCidrsSynced() {
        return serviceCidrsSynced ? this
                : new ClusterState(settings, configOffset, node, servicesSynced, slicesSynced, nodesSynced, services, slices,
                        slicesByService, serviceCidrs, true, pin);
    }

    ClusterState withServiceCidrs(PersistentMap<String, ServiceCidrSpec> newServiceCidrs) {
        return newServiceCidrs == serviceCidrs ? this
                : new ClusterState(settings, configOffset, node, servicesSynced, slicesSynced, nodesSynced, services, slices,
                        slicesByService, newServiceCidrs, serviceCidrsSynced, pin);
    }

    /**
     * The ServiceCIDRs the fold holds, by name, each with the record that last set it. When there
     * is any, their ranges are the node's service ranges ({@link DataplaneSettings#serviceCIDRs()});
     * otherwise the configured ones are.
     */
    public Map<String, Origin> serviceCidrOrigins() {
        LinkedHashMap<String, Origin> out = new LinkedHashMap<>();
        serviceCidrs.forEach((name, spec) -> out.put(name, spec.origin()));
        return Collections.unmodifiableMap(out);
    }

    /** The rule-changing settings in force: the configured ones, with the service ranges of {@link ServiceRanges}. */
    DataplaneSettings dataplane() {
        return settings.dataplane(ServiceRanges.effective(settings.serviceCIDRs(), serviceCidrs));
    }

    PersistentMap<EndpointSliceRef, SliceSpec> slicesOf(ServiceRef service) {
        PersistentMap<EndpointSliceRef, SliceSpec> group = slicesByService.get(service);
        return group == null ? PersistentMap.empty() : group;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClusterState c && configOffset == c.configOffset && servicesSynced == c.servicesSynced
                && slicesSynced == c.slicesSynced && nodesSynced == c.nodesSynced && settings.equals(c.settings) && node.equals(c.node)
                && services.equals(c.services) && slices.equals(c.slices) && slicesByService.equals(c.slicesByService)
                && serviceCidrs.equals(c.serviceCidrs) && serviceCidrsSynced == c.serviceCidrsSynced && Objects.equals(pin, c.pin);
    }

    @Override
    public int hashCode() {
        return Objects.hash(settings, configOffset, node, servicesSynced, slicesSynced, nodesSynced, services.size(), slices.size());
    }

    @Override
    public String toString() {
        return "ClusterState[node=" + settings.nodeName() + ", services=" + services.size() + ", slices=" + slices.size()
                + ", serviceCIDRs=" + serviceCidrs.size() + ", synced=" + servicesSynced + "/" + slicesSynced + "/" + nodesSynced + (pin == null ? "" : ", " + pin) + "]";
    }
}
