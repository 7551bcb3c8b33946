/**
 * Folded state rebuilt from an event log (docs/design.md, "The event log"): the newest usable
 * snapshot at or before an offset, then the records after it. Below the engine (whose start and
 * pins use it) and time travel (which asks for states at offsets), so that neither depends on the
 * other for it. Blocks on the log's I/O; opens nothing itself.
 */
module io.kproxy.replay {
    requires transitive io.kproxy.journal;
    requires transitive io.kproxy.state;
    requires org.slf4j;

    exports io.kproxy.replay;
}
