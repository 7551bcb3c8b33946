package io.kproxy.history;

import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.Envelope;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import io.kproxy.history.HistoryException.Reason;
import io.kproxy.model.IpFamily;
import io.kproxy.model.ServiceRef;
import io.kproxy.state.Endpoint;
import io.kproxy.state.FoldedState;
import io.kproxy.state.ServicePortState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code kproxy audit}: the timeline of one Service. Every record that touched it
 * ({@link Touches}) or changed its rules, plus the configuration and pins; after each change of
 * its rules, what the node then had to program for it (per family and port: the endpoints), and
 * when that reached the kernel: the first {@code SyncApplied} whose {@code uptoOffset} covers the
 * record, with the failed attempts before it, or why it has not been programmed (nothing synced
 * since, or the dataplane is pinned). Deterministic text. Reads the journal from {@code since}.
 */
final class Audit {

    private static final class Entry {
        final Envelope record;
        final boolean changed;
        final List<String> state;
        final Optional<String> skipped;
        final List<Envelope> failures = new ArrayList<>();
        Envelope applied;

        Entry(Envelope record, boolean changed, List<String> state, Optional<String> skipped) {
            this.record = record;
            this.changed = changed;
            this.state = state;
            this.skipped = skipped;
        }

        /** Waits for a sync: a change of the rules, or a configuration or pin that every Service's programming depends on. */
        boolean waits() {
            return changed || Touches.everyService(record.event());
        }

        /** Whether {@code sync} (uptoOffset {@code upto}) programmed this entry. */
        boolean coveredBy(Envelope sync, long upto) {
            return sync.offset() > record.offset() && (upto >= record.offset() || !changed);
        }
    }

    private Audit() {
    }

    static String report(History h, ServiceRef service, Optional<Instant> since) {
        JournalRange range = h.range();
        long start = range.firstOffset();
        if (since.isPresent() && since.get().isAfter(range.firstTime())) {
            start = since.get().isAfter(range.lastTime()) ? range.lastOffset() + 1 : h.desiredAt(since.get().minusNanos(1)).offset() + 1;
        }
        FoldedState initial = h.state(start - 1);
        List<Entry> entries = new ArrayList<>();
        boolean[] named = {initial.cluster().serviceOrigin(service).isPresent() || !initial.cluster().sliceOrigins(service).isEmpty()};
        Envelope[] pin = {null};
        h.walk(initial, range.lastOffset(), (record, before, step) -> {
            boolean touches = Touches.service(before.cluster(), step.state().cluster(), record.event(), service);
            boolean changed = step.delta().changedServices().contains(service);
            named[0] |= touches;
            if (touches || changed || Touches.everyService(record.event())) {
                entries.add(new Entry(record, changed, changed ? state(step.state(), service) : List.of(),
                        step.state().cluster().serviceSkipReason(service)));
            }
            if (record.event() instanceof SyncApplied s) {
                entries.stream().filter(e -> e.waits() && e.applied == null && e.coveredBy(record, s.uptoOffset())).forEach(e -> e.applied = record);
            } else if (record.event() instanceof SyncFailed f) {
                entries.stream().filter(e -> e.waits() && e.applied == null && e.coveredBy(record, f.uptoOffset()))
                        .forEach(e -> e.failures.add(record));
            } else if (record.event() instanceof DataplanePinned) {
                pin[0] = record;
            } else if (record.event() instanceof DataplaneUnpinned) {
                pin[0] = null;
            }
        });
        if (!named[0]) {
            throw new HistoryException(Reason.NOT_IN_JOURNAL, "no record in the journal " + (since.isPresent() ? "since "
                    + Describe.time(since.get()) + " " : "") + "names Service " + service + " (journal " + range + ")");
        }
        StringBuilder out = new StringBuilder();
        out.append("kproxy audit ").append(service).append(": journal ").append(range).append('\n');
        since.ifPresent(t -> out.append("since ").append(Describe.time(t)).append(t.isBefore(range.firstTime()) ? " (before the journal starts)" : "")
                .append(": ").append(startState(initial, service)).append('\n'));
        for (Entry e : entries) {
            out.append('\n').append(Describe.record(e.record)).append('\n');
            if (Touches.everyService(e.record.event())) {
                out.append("    concerns every Service\n");
            } else if (!e.changed) {
                out.append(e.skipped.map(r -> "    it gets no rules: " + Printed.text(r) + "\n").orElse("    no change to its rules\n"));
            } else {
                out.append("    its rules changed; then:\n");
                e.state.forEach(l -> out.append("      ").append(l).append('\n'));
            }
            for (Envelope f : e.failures) {
                SyncFailed sf = (SyncFailed) f.event();
                out.append("    sync generation ").append(sf.generation()).append(" failed at ").append(Describe.time(f.recordedAt())).append(": ")
                        .append(Printed.text(sf.error())).append('\n');
            }
            if (e.applied != null) {
                SyncApplied s = (SyncApplied) e.applied.event();
                out.append("    reached the kernel at ").append(Describe.time(e.applied.recordedAt())).append(": sync generation ").append(s.generation())
                        .append(" (").append(s.kind().name().toLowerCase()).append(", ").append(Printed.text(s.backend())).append(", #")
                        .append(e.applied.offset())
                        .append("), ").append(seconds(Duration.between(e.record.recordedAt(), e.applied.recordedAt()))).append(" after the record\n");
            } else if (e.waits()) {
                out.append(pin[0] != null ? "    not programmed: the dataplane is pinned (" + Describe.record(pin[0]) + ")\n"
                        : "    not programmed yet: no sync recorded after it\n");
            }
        }
        long changes = entries.stream().filter(e -> e.changed).count();
        long pending = entries.stream().filter(e -> e.changed && e.applied == null).count();
        out.append('\n').append(entries.size()).append(entries.size() == 1 ? " record, " : " records, ").append(changes)
                .append(changes == 1 ? " change" : " changes").append(" of its rules, ")
                .append(pending == 0 ? "all programmed" : pending + " not programmed").append('\n');
        return out.toString();
    }

    private static String startState(FoldedState s, ServiceRef service) {
        StringBuilder b = new StringBuilder();
        b.append("Service ").append(s.cluster().serviceOrigin(service).map(o -> "#" + o.offset() + " rv " + Printed.text(o.resourceVersion()))
                .orElse("absent"));
        s.cluster().sliceOrigins(service).forEach((ref, o) -> b.append(", EndpointSlice ").append(ref.name()).append(" #").append(o.offset()));
        return b.toString();
    }

    /** What the node must program for the Service after a record: per family and port, the endpoints. */
    static List<String> state(FoldedState s, ServiceRef service) {
        List<String> out = new ArrayList<>();
        for (IpFamily f : IpFamily.values()) {
            for (ServicePortState p : s.node().family(f).ports().values()) {
                if (p.name().service().equals(service)) {
                    out.add(port(f, p));
                }
            }
        }
        if (out.isEmpty()) {
            out.add(s.cluster().serviceOrigin(service).isEmpty() ? "no rules: the Service is gone"
                    : "no rules: " + Printed.text(s.cluster().serviceSkipReason(service).orElse("no port with a cluster IP")));
        }
        return out;
    }

    private static String port(IpFamily f, ServicePortState p) {
        StringBuilder b = new StringBuilder();
        b.append(f == IpFamily.IPV4 ? "IPv4 " : "IPv6 ").append(p.name().portName().isEmpty() ? "" : p.name().portName() + "/")
                .append(p.name().protocol()).append(' ').append(f == IpFamily.IPV6 ? "[" + p.clusterIP() + "]" : p.clusterIP()).append(':').append(p.port());
        if (p.nodePort() != 0) {
            b.append(" nodePort ").append(p.nodePort());
        }
        b.append(": ");
        if (p.endpoints().isEmpty()) {
            return b.append("no endpoints (traffic is rejected)").toString();
        }
        List<String> eps = new ArrayList<>();
        for (Endpoint e : p.endpoints()) {
            eps.add(e.hostPort() + (e.ready() ? "" : e.serving() && e.terminating() ? " (terminating)" : " (not ready)"));
        }
        b.append(String.join(", ", eps));
        if (!p.hasEndpoints()) {
            b.append(" (none usable: traffic is rejected)");
        }
        return b.toString();
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%d.%03ds", d.toSeconds(), d.toMillisPart());
    }
}
