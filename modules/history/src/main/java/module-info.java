/**
 * Time travel over an event log (docs/design.md, "Time travel and rollback"), as a library the CLI
 * only wires: the ruleset a node had programmed at a time or the desired state at an offset (the
 * nearest snapshot plus replay, rendered by the backend of the recorded mode through an in-memory
 * kernel port), annotated with the records each service's rules came from; the ruleset diff between
 * two times grouped by service with the records that caused each change; a service's audit timeline
 * with when each change reached the kernel; journal inspection and verification reports. Backends
 * are found with {@link java.util.ServiceLoader} at run time.
 */
module io.kproxy.history {
    requires transitive io.kproxy.journal;
    requires transitive io.kproxy.state;
    requires io.kproxy.backend;
    requires io.kproxy.replay;
    requires io.kproxy.config;
    requires org.slf4j;

    exports io.kproxy.history;
}
