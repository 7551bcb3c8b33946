/**
 * The pure core: the fold {@code ClusterState × ClusterEvent → ClusterState}, the node
 * projection into {@link io.kproxy.state.NodeState} with every kube-proxy endpoint-selection
 * rule, and {@link io.kproxy.state.StateDelta}. No Reactor, no clocks, no environment, no I/O.
 */
module io.kproxy.state {
    requires transitive io.kproxy.events;
    // Transitive: DataplaneSettings.Ipvs holds a scheduler of the config core's list
    // (io.kproxy.config.IpvsConfig.SCHEDULERS), which the ipvs backend checks names against too.
    requires transitive io.kproxy.config;

    exports io.kproxy.state;
}
