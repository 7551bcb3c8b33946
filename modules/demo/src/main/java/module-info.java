/**
 * A tool, not part of the agent: {@code kproxy demo}, the newcomer's tour. A recorded history
 * (events/samples/) is replayed through the real engine: as root into private network namespaces
 * with real connections, a bad change breaking a Service, a rollback through the admin socket
 * fixing it and a resume bringing the live state back; otherwise render-only, with the rulesets
 * rebuilt by the time-travel library. The application wires it ({@link io.kproxy.demo.Demo}) with
 * the real admin protocol ({@link io.kproxy.demo.ProtocolAdminSocket}). Backends are found with
 * {@link java.util.ServiceLoader} at run time.
 */
module io.kproxy.demo {
    requires transitive io.kproxy.engine;
    requires io.kproxy.history;
    requires io.kproxy.admin;
    // The live demo runs its pods and client inside network namespaces (setns(2)).
    requires io.kproxy.netns;
    requires reactor.core;

    exports io.kproxy.demo;
}
