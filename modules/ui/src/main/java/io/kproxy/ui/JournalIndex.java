package io.kproxy.ui;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.EndpointSliceDeleted;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.LocalAddressesObserved;
import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.NodeDeleted;
import io.kproxy.events.NodeObserved;
import io.kproxy.events.ServiceCIDRDeleted;
import io.kproxy.events.ServiceCIDRObserved;
import io.kproxy.events.ServiceDeleted;
import io.kproxy.events.ServiceObserved;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import io.kproxy.history.Describe;
import io.kproxy.journal.LogPages;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.model.Json;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntToLongFunction;

/**
 * What the page draws, kept in memory so that every question of the timeline is answered without
 * reading the journal again: per record its time and {@link Category} (and a sync's
 * duration), the {@link Mark}s, the syncs' offsets, and the {@link Lanes}. One sweep over the log
 * builds it ({@link #catchUp}, in pages, stepping over lost ranges and marking them); later sweeps
 * add what was appended since. About 13 bytes per record plus the marks and the lanes: with the 1,000,000
 * records of docs/benchmarks.md ("kproxy ui") the whole heap after a collection is 75 MB.
 *
 * <p>Thread-safe: one thread sweeps, request threads ask; every method holds the index's lock for
 * at most one page of records or one answer. Answers are bounded by their arguments (buckets,
 * limits), not by the journal's size.
 */
final class JournalIndex {

    private static final int PAGE = 1024;

    private long[] times = new long[1 << 12];
    private byte[] categories = new byte[1 << 12];
    private float[] syncMillis = new float[1 << 12];
    private int size;
    private long[] syncOffsets = new long[1 << 8];
    private long[] syncUpto = new long[1 << 8];
    private int syncs;
    private final List<Mark> marks = new ArrayList<>();
    private final Lanes lanes = new Lanes();
    /** The last spec of each Service seen, so that a changed spec is marked and a mere resync is not. */
    private final Map<String, Json> specs = new HashMap<>();
    /** Offsets of pins and resumes. */
    private final Set<Long> controls = new HashSet<>();
    /** Lost ranges told by the sweep whose following record has not been absorbed yet. */
    private final ArrayDeque<EventLogException> pendingLosses = new ArrayDeque<>();
    private long next = -1;
    private long lostRecords;

    /**
     * Reads the records appended since the last sweep, up to {@code max} of them, and returns how
     * many offsets it consumed. Lost ranges are stepped over and marked.
     *
     * @throws EventLogException when the log fails in a way that names no lost range
     */
    long catchUp(EventLog log, long max) {
        long from;
        synchronized (this) {
            from = next < 0 ? log.firstOffset() : next;
        }
        long end = log.nextOffset() - 1;
        if (end < from) {
            return 0;
        }
        long to = Math.min(end, from + max - 1);
        LogPages pages = LogPages.skipping(log, from, to, PAGE, this::lost);
        while (pages.hasNext()) {
            List<Envelope> page = pages.next();
            synchronized (this) {
                page.forEach(this::absorb);
                next = page.getLast().offset() + 1;
            }
        }
        synchronized (this) {
            next = Math.max(next, pages.position());
            while (!pendingLosses.isEmpty()) {
                markLoss(pendingLosses.removeFirst(), size == 0 ? 0 : times[size - 1]); // lost up to the end
            }
        }
        return pages.position() - from;
    }

    /** Marks a lost range between the last record absorbed before it and {@code afterMs}. */
    private void markLoss(EventLogException e, long afterMs) {
        long before = size == 0 ? afterMs : times[size - 1];
        marks.add(new Mark(Mark.Kind.DAMAGED, Math.min(before, afterMs), afterMs, e.lostFirst(), "", "records #" + e.lostFirst() + "..#" + e.lostLast()
                + " are lost (damage): " + e.getMessage()));
    }

    private synchronized void lost(EventLogException e) {
        lostRecords += e.lostLast() - e.lostFirst() + 1;
        // told before the records in front of the loss are served: the range is marked from the
        // last record before it to the first after it, once those are absorbed
        pendingLosses.add(e);
    }

    private void absorb(Envelope e) {
        long t = e.recordedAt().toEpochMilli();
        while (!pendingLosses.isEmpty() && pendingLosses.getFirst().lostLast() < e.offset()) {
            markLoss(pendingLosses.removeFirst(), t);
        }
        ClusterEvent event = e.event();
        Category c = Category.of(event);
        grow();
        times[size] = t;
        categories[size] = (byte) c.ordinal();
        syncMillis[size] = event instanceof SyncApplied s ? s.duration().toNanos() / 1e6f
                : event instanceof SyncFailed f ? f.duration().toNanos() / 1e6f : 0f;
        size++;
        switch (event) {
            case SyncApplied s -> {
                if (syncs == syncOffsets.length) {
                    syncOffsets = Arrays.copyOf(syncOffsets, syncs * 2);
                    syncUpto = Arrays.copyOf(syncUpto, syncs * 2);
                }
                syncOffsets[syncs] = e.offset();
                syncUpto[syncs++] = s.uptoOffset();
            }
            case SyncFailed f -> marks.add(new Mark(Mark.Kind.FAILED_SYNC, t, t, e.offset(), "", "sync failed: " + Describe.object(f)));
            case DataplanePinned p -> {
                controls.add(e.offset());
                marks.add(new Mark(Mark.Kind.PIN, t, t, e.offset(), "", "dataplane pinned " + Describe.object(p)));
            }
            case DataplaneUnpinned u -> {
                controls.add(e.offset());
                marks.add(new Mark(Mark.Kind.UNPIN, t, t, e.offset(), "", "dataplane unpinned: " + Describe.object(u)));
            }
            case ConfigRecorded r -> marks.add(new Mark(Mark.Kind.CONFIG, t, t, e.offset(), "", "configuration recorded: " + Describe.object(r)));
            case LocalAddressesObserved a -> marks.add(new Mark(Mark.Kind.CONFIG, t, t, e.offset(), "", "node addresses recorded: " + Describe.object(a)));
            case SourceRelisted r -> {
                marks.add(new Mark(Mark.Kind.RELIST, t, t, e.offset(), "", "relist of " + Describe.object(r)));
                if (r.kind() == ResourceKind.ENDPOINT_SLICE) {
                    lanes.relisted(t, r.keysPresent());
                }
            }
            case ServiceObserved o -> service(t, e.offset(), o);
            case ServiceDeleted d -> {
                lanes.touched(d.service().toString());
                specs.remove(d.service().toString());
                marks.add(new Mark(Mark.Kind.SERVICE_DELETED, t, t, e.offset(), d.service().toString(), "Service " + Describe.object(d) + " deleted"));
            }
            case EndpointSliceObserved o -> lanes.slice(t, o.slice(), SliceCounts.of(o.object()));
            case EndpointSliceDeleted d -> lanes.slice(t, d.slice(), SliceCounts.NONE);
            // counted on the timeline only
            case NodeObserved o -> { }
            case NodeDeleted d -> { }
            case ServiceCIDRObserved o -> { }
            case ServiceCIDRDeleted d -> { }
            case SourceSynced s -> { }
        }
    }

    /** Marks a Service whose spec changed (not its first observation, not a resync with the same spec). */
    private void service(long t, long offset, ServiceObserved o) {
        String name = o.service().toString();
        lanes.touched(name);
        Json.Obj spec = o.object().object("spec");
        Json old = specs.put(name, spec);
        if (old instanceof Json.Obj was && !was.equals(spec)) {
            TreeSet<String> fields = new TreeSet<>(was.fields().keySet());
            fields.addAll(spec.fields().keySet());
            fields.removeIf(f -> was.field(f).equals(spec.field(f)));
            marks.add(new Mark(Mark.Kind.SERVICE_CHANGED, t, t, offset, name, "Service " + name + " changed: spec." + String.join(", spec.", fields)));
        }
    }

    private void grow() {
        if (size == times.length) {
            int n = size * 2;
            times = Arrays.copyOf(times, n);
            categories = Arrays.copyOf(categories, n);
            syncMillis = Arrays.copyOf(syncMillis, n);
        }
    }

    /** Records indexed, lost offsets stepped over, and where the next sweep starts. */
    synchronized long[] progress() {
        return new long[] {size, lostRecords, next};
    }

    synchronized OptionalLong firstTime() {
        return size == 0 ? OptionalLong.empty() : OptionalLong.of(times[0]);
    }

    synchronized OptionalLong lastTime() {
        return size == 0 ? OptionalLong.empty() : OptionalLong.of(times[size - 1]);
    }

    /** The first index whose time is at or after {@code t}. */
    private int lowerBound(long t) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (times[mid] < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The timeline of {@code [fromMs, toMs)} in {@code buckets} equal buckets: per bucket, the
     * records of each {@link Category} and the longest sync's duration.
     */
    synchronized void timeline(long fromMs, long toMs, int buckets, JsonOut out) {
        int cats = Category.values().length;
        long[][] counts = new long[cats][buckets];
        double[] longest = new double[buckets];
        double width = (double) (toMs - fromMs) / buckets;
        for (int i = lowerBound(fromMs); i < size && times[i] < toMs; i++) {
            int b = (int) Math.min(buckets - 1, (times[i] - fromMs) / width);
            counts[categories[i]][b]++;
            longest[b] = Math.max(longest[b], syncMillis[i]);
        }
        out.beginObject().field("from", fromMs).field("to", toMs).field("bucketMs", width);
        out.name("t").beginArray();
        for (int b = 0; b < buckets; b++) {
            out.value((long) (fromMs + b * width));
        }
        out.endArray();
        for (Category c : Category.values()) {
            out.name(c.key()).beginArray();
            for (long n : counts[c.ordinal()]) {
                out.value(n);
            }
            out.endArray();
        }
        out.name("longestSyncMs").beginArray();
        for (double d : longest) {
            out.value(Math.round(d * 1000) / 1000.0);
        }
        out.endArray().endObject();
    }

    /**
     * The marks of {@code [fromMs, toMs]}, quiet gaps of the source longer than {@code gapMs}
     * included; at most {@code limit}, the most important kept ({@link Mark.Kind} order), in time order.
     */
    synchronized List<Mark> marks(long fromMs, long toMs, long gapMs, int limit, int[] dropped) {
        List<Mark> found = new ArrayList<>();
        for (Mark m : marks) {
            if (m.endMs() >= fromMs && m.startMs() <= toMs) {
                found.add(m);
            }
        }
        long lastSource = -1;
        for (int i = Math.max(0, lowerBound(fromMs) - 1); i < size && times[i] <= toMs; i++) {
            if (!Category.of(categories[i]).fromSource()) {
                continue;
            }
            if (lastSource >= 0 && times[i] - lastSource > gapMs) {
                found.add(new Mark(Mark.Kind.GAP, lastSource, times[i], -1, "", "the source was quiet for " + (times[i] - lastSource) / 1000
                        + " s (no observation or relist)"));
            }
            lastSource = times[i];
        }
        found.sort(Comparator.comparing(Mark::kind).thenComparingLong(Mark::startMs));
        dropped[0] = Math.max(0, found.size() - limit);
        List<Mark> kept = new ArrayList<>(found.subList(0, Math.min(limit, found.size())));
        kept.sort(Comparator.comparingLong(Mark::startMs).thenComparingLong(Mark::offset));
        return kept;
    }

    /** The offset of the {@code SyncApplied} recorded last before offset {@code syncOffset}, or -1. */
    synchronized long syncBefore(long syncOffset) {
        int i = Arrays.binarySearch(syncOffsets, 0, syncs, syncOffset);
        int before = (i >= 0 ? i : -i - 1) - 1;
        return before >= 0 ? syncOffsets[before] : -1;
    }

    /**
     * The first {@code SyncApplied} after {@code record} that programmed it (its {@code uptoOffset}
     * covers it), or -1 when none has yet. A pin or a resume is programmed by the first sync
     * after it, whatever that sync's {@code uptoOffset} (a pinned sync programs an older state).
     */
    synchronized long syncCovering(long record) {
        int i = Arrays.binarySearch(syncOffsets, 0, syncs, record);
        boolean control = controls.contains(record);
        for (int j = i >= 0 ? i + 1 : -i - 1; j < syncs; j++) {
            if (syncUpto[j] >= record || control) {
                return syncOffsets[j];
            }
        }
        return -1;
    }

    synchronized boolean isSync(long offset) {
        return Arrays.binarySearch(syncOffsets, 0, syncs, offset) >= 0;
    }

    synchronized List<Lanes.Lane> services(String query, int limit) {
        return lanes.search(query, limit);
    }

    synchronized int serviceCount() {
        return lanes.size();
    }

    /** A Service's lane between two times, at most {@code points} points (in a bucket, the point with the fewest ready endpoints). */
    synchronized boolean lane(String service, long fromMs, long toMs, int points, JsonOut out) {
        Lanes.Lane l = lanes.get(service);
        if (l == null) {
            return false;
        }
        int first = Math.max(0, l.indexAt(fromMs));
        int last = l.indexAt(toMs);
        List<Integer> picked = new ArrayList<>();
        int n = last - first + 1;
        if (n <= points) {
            for (int i = first; i <= last; i++) {
                picked.add(i);
            }
        } else {
            for (int b = 0; b < points; b++) {
                int lo = first + (int) ((long) b * n / points);
                int hi = first + (int) ((long) (b + 1) * n / points);
                int min = lo;
                for (int i = lo; i < hi; i++) {
                    if (l.ready[i] < l.ready[min]) {
                        min = i;
                    }
                }
                picked.add(min);
            }
        }
        out.beginObject().field("service", service).field("records", l.records);
        column(out, "t", picked, i -> Math.max(l.times[i], fromMs));
        column(out, "ready", picked, i -> l.ready[i]);
        column(out, "serving", picked, i -> l.serving[i]);
        column(out, "terminating", picked, i -> l.terminating[i]);
        out.endObject();
        return true;
    }

    private static void column(JsonOut out, String name, List<Integer> picked, IntToLongFunction value) {
        out.name(name).beginArray();
        picked.forEach(i -> out.value(value.applyAsLong(i)));
        out.endArray();
    }

    /** The pin in force at {@code offset}: the last {@code DataplanePinned} before it with no unpin between. */
    synchronized Optional<Mark> pinInForce(long offset) {
        Mark pin = null;
        for (Mark m : marks) {
            if (m.offset() >= offset) {
                break;
            }
            if (m.kind() == Mark.Kind.PIN) {
                pin = m;
            } else if (m.kind() == Mark.Kind.UNPIN) {
                pin = null;
            }
        }
        return Optional.ofNullable(pin);
    }
}
