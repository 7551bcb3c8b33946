/**
 * The pure core: the fold {@code ClusterState × ClusterEvent → ClusterState}, the node
 * projection into {@link io.kproxy.state.NodeState} with every kube-proxy endpoint-selection
 * rule, and {@link io.kproxy.state.StateDelta}. No Reactor, no clocks, no environment, no I/O.
 */
module io.kproxy.state {
    requires transitive io.kproxy.events;
    requires io.kproxy.config;

    exports io.kproxy.state;
}
