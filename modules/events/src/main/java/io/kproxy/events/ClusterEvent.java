package io.kproxy.events;

/**
 * A fact recorded in the event log, in the past tense. The set is closed: a switch over it has
 * no {@code default}, so a new event type breaks the build wherever it is not handled.
 *
 * <ul>
 *   <li>Observations of the API server: {@link ServiceObserved}, {@link ServiceDeleted},
 *       {@link EndpointSliceObserved}, {@link EndpointSliceDeleted}, {@link NodeObserved},
 *       {@link NodeDeleted}, {@link ServiceCIDRObserved}, {@link ServiceCIDRDeleted}.</li>
 *   <li>Barriers: {@link SourceSynced}, {@link SourceRelisted}.</li>
 *   <li>Control: {@link ConfigRecorded}, {@link SyncApplied}, {@link SyncFailed},
 *       {@link DataplanePinned}, {@link DataplaneUnpinned}.</li>
 *   <li>Observations of the node itself, by its agent: {@link LocalAddressesObserved}.</li>
 * </ul>
 *
 * <p>Every implementation is an immutable record, validated in its compact constructor, with no
 * null components. Each event type has a page under {@code events/} in the repository.
 */
public sealed interface ClusterEvent
        permits ServiceObserved, ServiceDeleted, EndpointSliceObserved, EndpointSliceDeleted, NodeObserved, NodeDeleted,
                SourceSynced, SourceRelisted, ConfigRecorded, SyncApplied, SyncFailed, DataplanePinned, DataplaneUnpinned,
                ServiceCIDRObserved, ServiceCIDRDeleted, LocalAddressesObserved {

    /** The stable wire type of this event. */
    EventType type();
}
