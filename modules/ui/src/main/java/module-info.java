/**
 * {@code kproxy ui} (docs/ui.md): a read-only page over a journal served by the JDK's HTTP server
 * on loopback: a zoomable timeline of the journal (observations, relists, configuration, syncs with
 * their durations, failed syncs, pins, quiet gaps of the source, damaged ranges), per-Service
 * swimlanes of endpoint counts, and at a clicked moment the ruleset the node had programmed, the
 * diff to the previous sync with the records that caused each change and a Service's audit, all
 * answered by {@code io.kproxy.history}. The page's assets, the uPlot chart library included, are
 * resources of this module. No endpoint writes anything.
 */
module io.kproxy.ui {
    // forLog takes the agent's EventLog; forJournal throws HistoryException.
    requires transitive io.kproxy.history;
    requires io.kproxy.backend;
    // JsonText: the build's one writer of JSON strings.
    requires io.kproxy.config;
    requires jdk.httpserver;
    requires org.slf4j;

    exports io.kproxy.ui;
}
