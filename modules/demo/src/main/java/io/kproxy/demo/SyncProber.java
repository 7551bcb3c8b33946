package io.kproxy.demo;

import io.kproxy.events.Envelope;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import io.kproxy.events.SyncKind;
import io.kproxy.journal.spi.EventLog;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.Disposable;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Follows the engine's sync records in the demo's journal and, after each, opens a real TCP
 * connection to the probed Service: the timeline tells the first sync, full syncs, syncs that
 * programmed a change of the Service, and every sync after which the connection's outcome
 * changed. The first time a connection fails after having worked, {@link #broken()} completes:
 * the moment the demo rolls back. While {@link #quiet(boolean)} (the demo is rolling back and
 * probing itself), syncs are only counted. Probes run on the prober's own thread.
 */
final class SyncProber implements AutoCloseable {

    /** The sync after which a connection first failed, and how it failed. */
    record Broken(Envelope record, SyncApplied sync, DemoNet.Outcome outcome) {
    }

    private final History history;
    private final Offsets offsets;
    private final DemoNet net;
    private final Console out;
    private final String address;
    private final Scheduler thread = Schedulers.newSingle("kproxy-demo-prober", true);
    private final Disposable subscription;
    private final CompletableFuture<Broken> broken = new CompletableFuture<>();
    private final AtomicLong syncs = new AtomicLong();
    private volatile boolean quiet;
    private volatile long lastUpto = -1;
    private Boolean lastOk;
    private long toldChange = -1;

    SyncProber(EventLog log, History history, Offsets offsets, DemoNet net, Console out) {
        this.history = history;
        this.offsets = offsets;
        this.net = net;
        this.out = out;
        this.address = history.target().clusterIP() + ":" + history.target().port();
        this.subscription = log.tail(0).filter(e -> e.event() instanceof SyncApplied || e.event() instanceof SyncFailed)
                .publishOn(thread).subscribe(this::onSync, e -> out.problem("cannot follow the journal: " + e));
    }

    private void onSync(Envelope e) {
        syncs.incrementAndGet();
        if (e.event() instanceof SyncFailed f) {
            out.event(e.recordedAt(), "sync " + f.generation() + " FAILED: " + f.error());
            return;
        }
        SyncApplied a = (SyncApplied) e.event();
        lastUpto = a.uptoOffset();
        if (quiet) {
            return;
        }
        DemoNet.Outcome o = probe();
        long change = offsets.lastChangeAtOrBefore(a.uptoOffset()).map(History.Change::index).orElse(-1);
        boolean notable = lastOk == null || a.kind() == SyncKind.FULL || o.ok() != lastOk || change > toldChange;
        if (notable) {
            out.event(e.recordedAt(), "sync " + a.generation() + " (" + a.kind().name().toLowerCase(Locale.ROOT) + ") programmed records "
                    + "up to #" + a.uptoOffset() + ": connect " + address + " -> " + (o.ok() ? "ok, " + o : "FAILED, " + o));
        }
        toldChange = Math.max(toldChange, change);
        if (Boolean.TRUE.equals(lastOk) && !o.ok() && !broken.isDone()) {
            broken.complete(new Broken(e, a, o));
        }
        lastOk = o.ok();
    }

    /** One connection to the Service. */
    DemoNet.Outcome probe() {
        return net.probe(history.target().clusterIP().toString(), history.target().port(), 1_000);
    }

    String address() {
        return address;
    }

    CompletableFuture<Broken> broken() {
        return broken;
    }

    /** Stops (or restarts) probing and telling; syncs are still counted. */
    void quiet(boolean q) {
        quiet = q;
    }

    long syncs() {
        return syncs.get();
    }

    /** The highest offset a sync programmed so far, -1 before any. */
    long lastUpto() {
        return lastUpto;
    }

    @Override
    public void close() {
        subscription.dispose();
        thread.dispose();
    }
}
