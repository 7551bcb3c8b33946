/**
 * The agent's admin protocol (docs/operations.md, "Rollback and resume" and "Access"): one JSON request line
 * and one answer line over a Unix domain socket, served by {@code AdminServer} to root and the
 * configured admin group only (the socket file's mode and the peer's {@code SO_PEERCRED}), and
 * sent by {@code AdminClient}. The requests are the engine's {@code DataplaneControl} (pin,
 * unpin, status) on the wire, so the engine is part of this API; the picocli commands that send
 * them are the application's.
 */
module io.kproxy.admin {
    // AdminServer serves the engine's DataplaneControl; AdminResponse encodes its answers.
    requires transitive io.kproxy.engine;
    // Limits is part of AdminServer.start.
    requires transitive io.kproxy.listen;
    // SO_PEERCRED: AdminAccess decides on the peer's UnixDomainPrincipal.
    requires transitive jdk.net;
    // the protocol's lines are JSON, read and written by the config loader's text layer
    requires io.kproxy.config.loader;
    requires org.slf4j;

    exports io.kproxy.admin;
}
