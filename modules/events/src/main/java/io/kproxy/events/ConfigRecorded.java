package io.kproxy.events;

import io.kproxy.model.Json;
import io.kproxy.model.NodeName;

/**
 * The configuration in force from here on, recorded by the agent at start so that a replay
 * folds with the configuration the node had at the time.
 *
 * @param node   the node this proxy runs for
 * @param config the effective (defaulted) {@code KubeProxyConfiguration}, kproxy section included
 */
public record ConfigRecorded(NodeName node, Json.Obj config) implements ClusterEvent {

    public ConfigRecorded {
        if (node == null || config == null) {
            throw new IllegalArgumentException("node and config are required");
        }
    }

    @Override
    public EventType type() {
        return EventType.CONFIG_RECORDED;
    }
}
