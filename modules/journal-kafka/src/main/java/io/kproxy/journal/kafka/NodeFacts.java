package io.kproxy.journal.kafka;

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
import io.kproxy.model.NodeName;

/**
 * Which records of a cluster topic are one node's facts: every observation and barrier, and of
 * the Nodes only its own. A node's own records found on a topic (config, syncs, pins, local addresses) are never
 * its facts: nothing on the topic can pin a node's dataplane. What the {@link Follower} mirrors
 * and what fleet time travel folds for a node. Pure.
 */
public final class NodeFacts {

    private NodeFacts() {
    }

    public static boolean forNode(NodeName node, ClusterEvent e) {
        return switch (e) {
            case ServiceObserved _, ServiceDeleted _, EndpointSliceObserved _, EndpointSliceDeleted _, ServiceCIDRObserved _,
                 ServiceCIDRDeleted _, SourceSynced _, SourceRelisted _ -> true;
            case NodeObserved n -> n.node().equals(node);
            case NodeDeleted n -> n.node().equals(node);
            // The node's local addresses are read by its own agent (ipvs mode), like its config.
            case ConfigRecorded _, SyncApplied _, SyncFailed _, DataplanePinned _, DataplaneUnpinned _, LocalAddressesObserved _ -> false;
        };
    }
}
