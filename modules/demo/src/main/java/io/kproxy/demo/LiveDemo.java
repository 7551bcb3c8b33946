package io.kproxy.demo;

import io.kproxy.backend.Backend;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.engine.Engine;
import io.kproxy.engine.EngineOptions;
import io.kproxy.engine.Recorder;
import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.Envelope;
import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.LocalJournal;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import reactor.core.scheduler.Schedulers;

/**
 * The demo with a real kernel (root): the history replayed, in its own time compressed, into a
 * fresh journal that the real engine tails and programs into the demo's node namespace; the
 * probed Service's failure seen by a real connection; a rollback through the admin socket to just
 * before the change that broke it, traffic working again; a resume, the live (broken) state back;
 * the rest of the history to its end. Blocks for at most about two minutes.
 */
final class LiveDemo {

    /** The engine's pacing for the demo: quick syncs, since an hour of history passes in a minute. */
    static final EngineOptions ENGINE = new EngineOptions(Duration.ofMillis(100), Duration.ofSeconds(30), Duration.ofHours(1),
            Duration.ofMillis(200), 1_000, EngineOptions.SOURCE);
    /** The whole demo stops past this, whatever happens. */
    static final Duration DEADLINE = Duration.ofSeconds(115);

    private final History history;
    private final DemoOptions options;
    private final AdminSocket admin;
    private final Console out;
    private final Cleanup cleanup;
    private final long started = System.nanoTime();
    private DemoNet net;
    private LocalJournal journal;
    private ReplayClock clock;
    private Engine engine;
    private Path socket;
    private SyncProber prober;
    private Offsets offsets;

    private LiveDemo(History history, DemoOptions options, AdminSocket admin, Console out, Cleanup cleanup) {
        this.history = history;
        this.options = options;
        this.admin = admin;
        this.out = out;
        this.cleanup = cleanup;
    }

    /** Runs the demo on {@code net} (already built, owned by {@code cleanup}) in {@code work} (a private directory); the exit code. */
    static int run(History history, DemoOptions options, AdminSocket admin, Console out, Cleanup cleanup, DemoNet net, Path work)
            throws Failure {
        LiveDemo d = new LiveDemo(history, options, admin, out, cleanup);
        d.net = net;
        d.setUp(work);
        return d.replay();
    }

    /** The demo cannot go on; the message says why. */
    static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        Failure(String message) {
            super(message);
        }
    }

    private void setUp(Path work) throws Failure {
        History.Target t = history.target();
        out.line("network:  node namespace " + net.node() + " (the engine programs it), " + t.podIPs().size() + " pod namespaces of "
                + t.service() + " listening on port " + join(t.goodPorts()) + ", a client at " + net.clientIp() + "; all on a bridge");
        Path dir = options.keep().orElse(work.resolve("journal"));
        clock = new ReplayClock(history.start(), speed());
        journal = cleanup.add(LocalJournal.open(JournalOptions.defaults(dir).withClock(clock)));
        String mode = options.modeOr(history.mode());
        BackendProvider provider = BackendProvider.forMode(mode).orElseThrow(() -> new Failure("the proxy mode " + mode + " has no backend installed"));
        Backend backend;
        try {
            backend = cleanup.add(provider.create(Optional.of(net.node())));
        } catch (IllegalStateException e) {
            // A kernel the mode cannot run on (ipvs without ip_vs): the provider's message says what is missing.
            throw new Failure(e.getMessage() + " (try --render-only)");
        }
        engine = cleanup.add(Engine.start(new Engine.Wiring(journal, backend, ENGINE, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                clock.engineClock(), Schedulers.newSingle("kproxy-fold", true), Schedulers.newSingle("kproxy-sync", true),
                Schedulers.newSingle("kproxy-snapshot", true), Recorder.thread("kproxy-recorder", 2))));
        socket = work.resolve("admin.sock");
        try {
            cleanup.add(admin.serve(socket, engine.control(), Duration.ofSeconds(20)));
        } catch (java.io.IOException e) {
            throw new Failure("cannot serve the admin socket " + socket + ": " + e.getMessage());
        }
        offsets = new Offsets(history);
        prober = cleanup.add(new SyncProber(journal, history, offsets, net, out));
        out.line("engine:   " + mode + " backend, journal " + dir + ", admin socket " + socket);
        out.line("");
    }

    private int replay() throws Failure {
        List<Envelope> records = history.records();
        double speed = speed();
        out.line(String.format("Replaying %d records from %s to %s, %.0fx faster than they happened. Each sync is followed by a real "
                + "connection to %s (%s):", records.size(), Console.time(history.start()), Console.time(history.end()), speed,
                prober.address(), history.target().service()));
        Narration story = new Narration(history);
        long realStart = System.nanoTime();
        long paused = 0;
        boolean rolledBack = false;
        CompletableFuture<Long> last = CompletableFuture.completedFuture(-1L);
        for (int i = 0; i < records.size(); i++) {
            Envelope r = records.get(i);
            sleepUntil(realStart + paused + (long) (Duration.between(history.start(), r.recordedAt()).toNanos() / speed));
            clock.set(r.recordedAt(), i + 1 < records.size() ? records.get(i + 1).recordedAt() : r.recordedAt());
            int index = i;
            CompletableFuture<Long> f = journal.append(r.source(), r.event());
            f.thenAccept(o -> offsets.landed(index, o));
            last = f;
            story.tell(i, r, f::join, out);
            out.progress(i + 1, records.size(), r.recordedAt(), prober.syncs());
            if (i == history.syncedIndex()) {
                // The first sync programs every Service from scratch, on a cold JVM: let it finish
                // before the history goes on, so that the timeline does not run ahead of it.
                long w0 = System.nanoTime();
                clock.hold();
                f.join();
                while (prober.syncs() == 0 && System.nanoTime() - w0 < Duration.ofSeconds(20).toNanos()) {
                    sleep(20);
                }
                paused += System.nanoTime() - w0;
            }
            if (!rolledBack && prober.broken().isDone()) {
                last.join();
                out.endProgress();
                long p0 = System.nanoTime();
                clock.hold();
                rollbackAndResume(prober.broken().join());
                paused += System.nanoTime() - p0;
                rolledBack = true;
            }
            checkDeadline();
        }
        long end = last.join();
        out.endProgress();
        return finish(end, rolledBack);
    }

    private Optional<History.Change> lastHealthyBefore(History.Change c) {
        return history.changes().stream().filter(x -> x.index() < c.index() && x.healthy()).reduce((a, b) -> b);
    }

    /** History time per real time: the whole history in the asked replay time. */
    private double speed() {
        return Math.max(1.0, (double) history.span().toNanos() / options.replay().toNanos());
    }

    private void rollbackAndResume(SyncProber.Broken b) throws Failure {
        prober.quiet(true);
        History.Change bad = offsets.breakageStartAtOrBefore(b.sync().uptoOffset())
                .orElseThrow(() -> new Failure("the Service failed, but no change of it was programmed: " + b.outcome()));
        out.line("");
        out.line(">>> " + Console.time(b.record().recordedAt()) + "  traffic to " + history.target().service() + " FAILS: " + b.outcome()
                + " (sync " + b.sync().generation() + ").");
        out.line("    The change that broke it: #" + offsets.of(bad.index()) + " at " + Console.time(bad.at()) + ": " + bad.summary());
        offsets.lastChangeAtOrBefore(b.sync().uptoOffset()).filter(l -> l.index() != bad.index())
                .ifPresent(l -> out.line("    and then: #" + offsets.of(l.index()) + " at " + Console.time(l.at()) + ": " + l.summary()));
        lastHealthyBefore(bad).ifPresent(p -> out.line("    Before it, all was well:  " + p.summary()));
        Instant to = bad.at().minusMillis(1);
        String reason = "demo: " + history.target().service() + " refused connections after " + Console.time(bad.at());
        out.line("");
        out.line("$ kproxy rollback --to " + to + " --reason '" + reason + "'");
        out.line("  " + ask(() -> admin.rollback(socket, to, reason)));
        List<DemoNet.Outcome> probes = probes(6);
        out.line("  connect " + prober.address() + " x" + probes.size() + " -> " + tally(probes));
        if (!probes.stream().allMatch(DemoNet.Outcome::ok)) {
            throw new Failure("the rollback did not bring traffic back: " + tally(probes));
        }
        out.line("  traffic flows again, while the journal keeps recording the live (broken) state.");
        out.line("$ kproxy status");
        out.line(indent(ask(() -> admin.status(socket))));
        out.line("  /healthz: " + engine.health().healthz().body());
        out.line("");
        out.line("$ kproxy resume --reason 'demo: back to the live state'");
        out.line("  " + ask(() -> admin.resume(socket, "demo: back to the live state")));
        List<DemoNet.Outcome> after = probes(3);
        out.line("  connect " + prober.address() + " x" + after.size() + " -> " + tally(after)
                + (after.stream().anyMatch(DemoNet.Outcome::ok) ? "" : "   (the live state still has the bad change)"));
        out.line("");
        out.line("The replay goes on:");
        prober.quiet(false);
    }

    private int finish(long lastOffset, boolean rolledBack) throws Failure {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (engine.state().offset() < lastOffset && System.nanoTime() < deadline) {
            sleep(50);
        }
        sleep(ENGINE.minSyncPeriod().toMillis() + 400);
        List<DemoNet.Outcome> end = probes(3);
        out.event(history.end(), "end of the history: connect " + prober.address() + " x3 -> " + tally(end));
        out.line("");
        if (!rolledBack) {
            throw new Failure("traffic to " + history.target().service() + " never failed during the replay, so there was nothing to "
                    + "roll back (is it the Service the history breaks? choose one with --service)");
        }
        out.line("The journal holds the rollback and the resume (source " + io.kproxy.engine.DataplaneControl.SOURCE + "):");
        for (Envelope e : journal.read(0, Integer.MAX_VALUE)) {
            if (e.event() instanceof DataplanePinned p) {
                out.event(e.recordedAt(), "#" + e.offset() + "  DataplanePinned toOffset=" + p.toOffset() + " reason=\"" + p.reason() + "\"");
            } else if (e.event() instanceof DataplaneUnpinned u) {
                out.event(e.recordedAt(), "#" + e.offset() + "  DataplaneUnpinned reason=\"" + u.reason() + "\"");
            }
        }
        out.line(String.format("%d records replayed, %d syncs, in %.1f s.", history.records().size(), prober.syncs(),
                (System.nanoTime() - started) / 1e9));
        options.keep().ifPresent(d -> out.line("The demo's journal is kept in " + d + " (docs/operations.md: render, diff, audit)."));
        return 0;
    }

    /** One request to the admin socket, as an operator's command would send it. */
    @FunctionalInterface
    private interface Request {
        String send() throws AdminSocket.Refused;
    }

    private static String ask(Request r) throws Failure {
        try {
            return r.send();
        } catch (AdminSocket.Refused e) {
            throw new Failure(e.getMessage());
        }
    }

    private List<DemoNet.Outcome> probes(int n) {
        List<DemoNet.Outcome> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(prober.probe());
        }
        return out;
    }

    /** "3 answered (pod-0 2, pod-1 1), 1 connection refused". */
    static String tally(List<DemoNet.Outcome> outcomes) {
        TreeMap<String, Integer> pods = new TreeMap<>();
        TreeMap<String, Integer> failures = new TreeMap<>();
        for (DemoNet.Outcome o : outcomes) {
            if (o.ok()) {
                pods.merge(o.detail().replaceFirst("^answered by (\\S+).*$", "$1"), 1, Integer::sum);
            } else {
                failures.merge(o.detail(), 1, Integer::sum);
            }
        }
        List<String> parts = new ArrayList<>();
        int ok = pods.values().stream().mapToInt(Integer::intValue).sum();
        if (ok > 0) {
            parts.add(ok + " answered (" + String.join(", ", pods.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList())
                    + ")");
        }
        failures.forEach((what, n) -> parts.add(n + " " + what));
        return String.join(", ", parts);
    }

    private void checkDeadline() throws Failure {
        if (System.nanoTime() - started > DEADLINE.toNanos()) {
            throw new Failure("the demo took longer than " + DEADLINE.toSeconds() + " s; stopped");
        }
    }

    private static void sleepUntil(long nanos) {
        long wait = nanos - System.nanoTime();
        if (wait > 0) {
            sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
    }

    private static void sleep(long millis) {
        sleep(millis, 0);
    }

    private static void sleep(long millis, int nanos) {
        try {
            Thread.sleep(millis, nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }

    private static String indent(String text) {
        return ("  " + text.strip()).replace("\n", "\n  ");
    }

    private static String join(java.util.Set<Integer> ports) {
        return String.join(", ", ports.stream().map(String::valueOf).toList());
    }
}
