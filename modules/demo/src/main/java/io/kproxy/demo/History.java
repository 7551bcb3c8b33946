package io.kproxy.demo;

import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.Envelope;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Protocol;
import io.kproxy.model.ServiceRef;
import io.kproxy.state.Endpoint;
import io.kproxy.state.FoldStep;
import io.kproxy.state.FoldedState;
import io.kproxy.state.ServicePortState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A recorded history for the demo: the source's records of a sample journal (the engine's own
 * sync and pin records are left out: the demo's engine writes its own), and what the demo needs
 * to know about the Service it probes, found by folding the history once:
 *
 * <ul>
 *   <li>its first TCP port's cluster IP and port once it has endpoints (what the client connects to);</li>
 *   <li>the ports its endpoints used then ("good" ports: the demo's pods listen there and nowhere
 *       else, as real containers listen on one port whatever a Service says);</li>
 *   <li>every endpoint IP it ever had (a pod for each);</li>
 *   <li>each record that changed its rules ({@link Change}), and the first of them after which
 *       no endpoint is on a good port: the change that breaks it, as far as rules tell.</li>
 * </ul>
 *
 * Immutable after {@link #load}; blocks on the journal's I/O while loading.
 */
final class History {

    /**
     * A record that changed the probed Service's IPv4 rules, and the rules it left.
     *
     * @param index     the record's position in {@link #records()} (its offset in the replay,
     *                  before the engine's own records are interleaved)
     * @param reachable some endpoint is on a good port: some connections are answered
     * @param healthy   there are endpoints and all are on good ports: every connection is answered
     */
    record Change(int index, Instant at, String summary, boolean reachable, boolean healthy) {
    }

    /**
     * A breakage: from the last healthy state, the change that starts it (a rollout of a bad
     * edit can take several records) and the first change after which nothing answers.
     */
    record Episode(Change lastGood, Change start, Change broken) {
    }

    /** The probed Service and where its pods are. */
    record Target(ServiceRef service, IpAddress clusterIP, int port, TreeSet<Integer> goodPorts, TreeSet<IpAddress> podIPs) {
    }

    /** A history that cannot be used, with the reason. */
    static final class Unusable extends Exception {
        private static final long serialVersionUID = 1L;

        Unusable(String message) {
            super(message);
        }
    }

    private final List<Envelope> records;
    private final Target target;
    private final List<Change> changes;
    private final String node;
    private final String mode;

    private final int syncedIndex;
    private final long[] originalOffsets;

    private History(List<Envelope> records, Target target, List<Change> changes, String node, String mode, int syncedIndex,
            long[] originalOffsets) {
        this.records = records;
        this.syncedIndex = syncedIndex;
        this.originalOffsets = originalOffsets;
        this.target = target;
        this.changes = changes;
        this.node = node;
        this.mode = mode;
    }

    /** Reads the journal in {@code dir} (read-only, nothing is changed) and scans it for {@code service}. */
    static History load(Path dir, ServiceRef service) throws Unusable {
        if (!Files.isDirectory(dir)) {
            throw new Unusable("no recorded history at " + dir);
        }
        List<Envelope> records = new ArrayList<>();
        try (LocalJournal j = LocalJournal.openReadOnly(dir)) {
            for (long from = j.firstOffset(); from < j.nextOffset();) {
                List<Envelope> page = j.read(from, 4096);
                if (page.isEmpty()) {
                    break;
                }
                for (Envelope e : page) {
                    if (!engines(e)) {
                        records.add(e);
                    }
                }
                from = page.getLast().offset() + 1;
            }
        } catch (EventLogException e) {
            throw new Unusable("cannot read the history at " + dir + ": " + e.getMessage());
        }
        if (records.isEmpty()) {
            throw new Unusable("the history at " + dir + " holds no records");
        }
        return scan(records, service);
    }

    /** The engine's own records: the demo's engine appends its own. */
    private static boolean engines(Envelope e) {
        return e.event() instanceof SyncApplied || e.event() instanceof SyncFailed || e.event() instanceof DataplanePinned
                || e.event() instanceof DataplaneUnpinned;
    }

    /** Folds {@code records} (offsets are their positions once replayed: 0, 1, ...) and finds the target's story. */
    static History scan(List<Envelope> records, ServiceRef service) throws Unusable {
        List<Envelope> renumbered = new ArrayList<>(records.size());
        long[] original = new long[records.size()];
        FoldedState s = FoldedState.initial();
        List<Change> changes = new ArrayList<>();
        ServicePortState first = null;
        TreeSet<Integer> good = new TreeSet<>();
        TreeSet<IpAddress> pods = new TreeSet<>();
        String node = "";
        int syncedIndex = -1;
        for (Envelope e : records) {
            original[renumbered.size()] = e.offset();
            Envelope r = new Envelope(renumbered.size(), e.recordedAt(), e.source(), e.event());
            renumbered.add(r);
            if (e.event() instanceof ConfigRecorded c) {
                node = c.node().value();
            }
            FoldStep step = s.apply(r);
            s = step.state();
            if (syncedIndex < 0 && s.node().synced()) {
                syncedIndex = (int) r.offset();
            }
            if (!step.delta().changedServices().contains(service)) {
                continue;
            }
            Optional<ServicePortState> port = tcpPort(s, service);
            if (first == null && port.isPresent() && !port.get().clusterEndpoints().isEmpty()) {
                first = port.get();
                port.get().clusterEndpoints().forEach(ep -> good.add(ep.port().value()));
            }
            port.ifPresent(p -> p.endpoints().forEach(ep -> pods.add(ep.ip())));
            String summary = summary(service, port);
            if (!changes.isEmpty() && changes.getLast().summary().equals(summary)) {
                continue; // an IPv6-only change: the probe (IPv4) does not see it
            }
            List<Endpoint> eps = port.map(ServicePortState::clusterEndpoints).orElse(List.of());
            boolean reachable = eps.stream().anyMatch(ep -> good.contains(ep.port().value()));
            boolean healthy = !eps.isEmpty() && eps.stream().allMatch(ep -> good.contains(ep.port().value()));
            changes.add(new Change((int) r.offset(), r.recordedAt(), summary, reachable, healthy));
        }
        if (first == null) {
            throw new Unusable("Service " + service + " never has a TCP port with endpoints in this history");
        }
        return new History(List.copyOf(renumbered), new Target(service, first.clusterIP(), first.port().value(), good, pods),
                List.copyOf(changes), node, s.node().settings().mode(), syncedIndex, original);
    }

    /** The Service's first TCP port of IPv4, in port-name order. */
    static Optional<ServicePortState> tcpPort(FoldedState s, ServiceRef service) {
        return s.node().family(IpFamily.IPV4).ports().values().stream()
                .filter(p -> p.name().service().equals(service) && p.name().protocol() == Protocol.TCP).findFirst();
    }

    static String summary(ServiceRef service, Optional<ServicePortState> port) {
        if (port.isEmpty()) {
            return service + " has no TCP port (deleted?)";
        }
        ServicePortState p = port.get();
        List<Endpoint> eps = p.clusterEndpoints();
        String to = eps.isEmpty() ? "no endpoints" : eps.stream().map(Endpoint::hostPort).collect(Collectors.joining(", "));
        return service + " " + p.clusterIP() + ":" + p.port() + " -> " + to;
    }

    List<Envelope> records() {
        return records;
    }

    Target target() {
        return target;
    }

    List<Change> changes() {
        return changes;
    }

    /** The first breakage of the history: nothing answers after it, having answered before. */
    Optional<Episode> predictedBreak() {
        Change lastGood = null;
        Change start = null;
        for (Change c : changes) {
            if (c.healthy()) {
                lastGood = c;
                start = null;
            } else if (lastGood != null) {
                start = start == null ? c : start;
                if (!c.reachable()) {
                    return Optional.of(new Episode(lastGood, start, c));
                }
            }
        }
        return Optional.empty();
    }

    /** The change after {@code c}, if any. */
    Optional<Change> after(Change c) {
        int i = changes.indexOf(c);
        return i >= 0 && i + 1 < changes.size() ? Optional.of(changes.get(i + 1)) : Optional.empty();
    }

    /** The offset the {@code index}-th record has in the recorded journal (where the left-out engine records count). */
    long originalOffset(int index) {
        return originalOffsets[index];
    }

    /** The index of the record after which the state has synced (the first sync can run), -1 if never. */
    int syncedIndex() {
        return syncedIndex;
    }

    /** The node name of the history's configuration. */
    String node() {
        return node;
    }

    /** The proxy mode of the history's configuration. */
    String mode() {
        return mode;
    }

    Instant start() {
        return records.getFirst().recordedAt();
    }

    Instant end() {
        return records.getLast().recordedAt();
    }

    Duration span() {
        return Duration.between(start(), end());
    }
}
