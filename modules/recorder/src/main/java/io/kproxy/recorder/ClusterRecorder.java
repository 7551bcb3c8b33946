package io.kproxy.recorder;

import io.kproxy.events.ResourceKind;
import io.kproxy.journal.kafka.KafkaEventLog;
import io.kproxy.journal.kafka.TopicImage;
import io.kproxy.source.kube.KubeSource;
import io.kproxy.source.kube.LeaseElection;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code kproxy record} (docs/kafka.md, "The recorder"): one replica of the cluster's recorder.
 * It joins the Lease election; while it leads, and only then, it appends:
 *
 * <ol>
 *   <li>It opens the topic and {@linkplain KafkaEventLog#fence() fences} the previous writer:
 *       every replica shares one transactional id, so the broker aborts the old leader's open
 *       transaction and refuses its later writes, even when the old leader still believes it
 *       leads (a paused process, a partition, clock skew between Lease holders).</li>
 *   <li>It folds the topic (the newest snapshot plus what follows, {@code read_committed}), so it
 *       knows exactly what the topic holds once no one else can add to it.</li>
 *   <li>It relists the API server with a source that knows those objects: only what differs is
 *       appended (no gap: everything the API server holds is on the topic after the relist; no
 *       duplicate: an object whose latest observation is already there is not appended again),
 *       then it records every change, every Node included.</li>
 *   <li>Every {@code snapshotPeriod} it folds what was appended and, after {@code snapshotEvery}
 *       records, writes a snapshot of the topic's objects, so that a new follower, or one behind
 *       what retention removed, starts from it.</li>
 * </ol>
 *
 * A lost Lease stops the source and closes the topic; the replica competes again and, when it
 * leads again, starts a new term. A source that stops for good (its appends
 * fenced by another replica, or the topic refused) ends the term, and so does a broker that stops
 * answering (the topic refused {@value #LOST_BROKER_RETRIES} appends in a row): the queued
 * observations are dropped rather than kept for a broker that may be gone for long, and the
 * replica, while it still holds the Lease, leads again every 5 s until the topic opens. The new
 * term folds the topic and relists, so what changed meanwhile is appended once, as a difference
 * (docs/kafka.md, "The recorder"); the Lease holder is the one that appends. All leadership
 * changes run on one thread, in order.
 * Thread-safe; {@link #close()} leaves the election and stops recording.
 */
public final class ClusterRecorder implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterRecorder.class);
    private static final Duration RETRY = Duration.ofSeconds(5);
    /** Appends refused in a row (with the source's backoff between them) after which the broker counts as lost. */
    static final int LOST_BROKER_RETRIES = 3;

    private final RecorderOptions options;
    private final ScheduledExecutorService thread;
    private final CompletableFuture<Void> firstTerm = new CompletableFuture<>();
    private volatile LeaseElection election;
    private volatile boolean leading;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Term term;   // written on the recorder's thread only
    private final AtomicInteger terms = new AtomicInteger();
    // one per Lease acquired: a lead() that saw it change while it opened the topic gives way
    private final AtomicInteger leaderships = new AtomicInteger();

    /** One leadership: the topic, the source appending to it, what is folded, the snapshot task. */
    private static final class Term {
        final KafkaEventLog log;
        final KubeSource source;
        TopicImage image;
        long snapshotAt;
        ScheduledFuture<?> snapshots;
        // the source's append retries up to its last empty queue: retries since then are "in a row"
        volatile long retriesAcknowledged;

        Term(KafkaEventLog log, KubeSource source, TopicImage image) {
            this.log = log;
            this.source = source;
            this.image = image;
            this.snapshotAt = image.offset();
        }
    }

    private ClusterRecorder(RecorderOptions options) {
        this.options = options;
        this.thread = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("kproxy-recorder").daemon().factory());
    }

    /** Joins the election; returns at once. */
    public static ClusterRecorder start(RecorderOptions options) {
        ClusterRecorder r = new ClusterRecorder(options);
        r.election = LeaseElection.join(options.client(), options.lease(), () -> {
            r.leaderships.incrementAndGet();
            r.leading = true;
            r.onThread(r::lead);
        }, () -> {
            r.leading = false;
            r.onThread(r::stepDown);
        }, id -> LOG.info("decision=leader-seen identity={} me={}", id, options.lease().identity()));
        return r;
    }

    /** Runs {@code task} on the recorder's thread, unless it is closed (a callback after close). */
    private void onThread(Runnable task) {
        try {
            thread.execute(task);
        } catch (RejectedExecutionException e) {
            LOG.debug("decision=ignore-callback reason=closed");
        }
    }

    /** Whether this replica holds the Lease and records. */
    public boolean leading() {
        return leading;
    }

    /** Whether a term is open: the topic is open and the source appends to it. */
    public boolean recording() {
        return term != null;
    }

    /** How many terms this replica has led: one more after each fenced append or lost broker while it held the Lease. */
    public int terms() {
        return terms.get();
    }

    /** How many times this replica acquired the Lease. */
    public int leaderships() {
        return leaderships.get();
    }

    /** Completes once this replica recorded for the first time (its relist is appended). */
    public CompletableFuture<Void> firstTerm() {
        return firstTerm;
    }

    private void lead() {
        if (term != null || !leading) {
            return;
        }
        int leadership = leaderships.get();
        KafkaEventLog log = null;
        try {
            log = KafkaEventLog.open(options.topic());
            log.fence();
            TopicImage image = TopicObjects.fold(log);
            if (!leading || leaderships.get() != leadership) {
                // The Lease was lost while the topic opened (up to the broker's timeout when it is
                // coming back): the step-down that loss queued would end this term at once, and
                // the lead() a regained Lease queued starts the next one.
                LOG.info("decision=abandon-lead reason=lease-changed still_leading={}", leading);
                log.close();
                return;
            }
            LOG.info("decision=lead identity={} topic={} folded_to={} services={} slices={} nodes={}", options.lease().identity(),
                    options.topic().topic(), image.offset(), image.objects(ResourceKind.SERVICE).size(),
                    image.objects(ResourceKind.ENDPOINT_SLICE).size(),
                    image.objects(ResourceKind.NODE).size());
            KubeSource source = KubeSource.createRecorder(options.client(), log, TopicObjects.known(image));
            Term t = new Term(log, source, image);
            term = t;
            terms.incrementAndGet();
            // A source that stopped for good (its appends FENCED, or the log closed) ends the term;
            // while this replica still holds the Lease it leads again, which fences the other writer.
            // A broker that stopped answering ends it too: the next term relists once the topic opens again.
            source.addListener(s -> {
                if (s.failed()) {
                    onThread(() -> restart(t, s.lastError()));
                } else if (s.appendRetries() - t.retriesAcknowledged >= LOST_BROKER_RETRIES) {
                    onThread(() -> restart(t, "the topic refused " + LOST_BROKER_RETRIES + " appends in a row: " + s.lastError()));
                } else if (s.queueDepth() == 0) {
                    t.retriesAcknowledged = s.appendRetries();
                }
            });
            source.start();
            long period = options.snapshotPeriod().toMillis();
            t.snapshots = thread.scheduleWithFixedDelay(() -> snapshot(t), period, period, TimeUnit.MILLISECONDS);
            source.synced().thenRun(() -> firstTerm.complete(null));
        } catch (RuntimeException e) {
            LOG.error("decision=retry-lead reason=\"{}\" retry_in={}", e.getMessage(), RETRY);
            if (term == null && log != null) {
                log.close();
            }
            if (term != null) {
                stepDown();
            }
            if (!closed.get()) {
                thread.schedule(this::lead, RETRY.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }

    /** Folds what was appended since; stores a snapshot when {@code snapshotEvery} records passed. */
    private void snapshot(Term t) {
        if (term != t) {
            return;
        }
        try {
            t.image = TopicObjects.advance(t.log, t.image);
            if (t.image.offset() - t.snapshotAt >= options.snapshotEvery()) {
                t.log.storeSnapshot(t.image.offset(), t.image.encode());
                t.snapshotAt = t.image.offset();
            }
        } catch (RuntimeException e) {
            LOG.warn("decision=skip-snapshot reason=\"{}\"", e.getMessage());
        }
    }

    private void restart(Term t, String why) {
        if (term != t) {
            return;
        }
        LOG.warn("decision=end-term reason=\"{}\" still_leading={} retry_in={}", why, leading, RETRY);
        stepDown();
        if (leading && !closed.get()) {
            thread.schedule(this::lead, RETRY.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void stepDown() {
        Term t = term;
        term = null;
        if (t == null) {
            return;
        }
        if (t.snapshots != null) {
            t.snapshots.cancel(false);
        }
        t.source.close();
        t.log.close();
        LOG.info("decision=step-down identity={}", options.lease().identity());
    }

    /** Leaves the election (releasing the Lease) and stops recording. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        LeaseElection e = election;
        if (e != null) {
            e.close();
        }
        leading = false;
        onThread(this::stepDown);
        thread.shutdown();
        try {
            if (!thread.awaitTermination(30, TimeUnit.SECONDS)) {
                thread.shutdownNow();
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
