package io.kproxy.journal.kafka;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.Envelope;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.journal.spi.Snapshot;
import io.kproxy.model.NodeName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node agent's side of the cluster log (docs/kafka.md, "Followers"): follows the topic and
 * mirrors each record into the node's local journal with its Kafka offset in the source
 * ({@link MirroredOffsets}), so the engine, {@code SyncApplied}, rollback, status and time travel
 * work on the local journal exactly as with the local source.
 *
 * <ul>
 *   <li>Resume: after the highest Kafka offset the local journal holds. A node with none, or one
 *       so far behind that retention removed what it needs, starts from the newest snapshot of
 *       the side topic (its objects, then one relist per kind, which also drops what the node held
 *       and the cluster no longer has), else from the topic's start (which must be offset 0).</li>
 *   <li>Only the cluster's facts are mirrored: observations and barriers, and of the Nodes only
 *       this node's. A node's own records found on the topic (config, syncs, pins) are skipped:
 *       nothing on the topic can pin this node's dataplane.</li>
 *   <li>A broker that cannot be reached: {@link Status#connected()} turns false (the agent's
 *       health follows), and the follower retries with backoff (1 s doubling to 30 s); the rules
 *       programmed stay. A record of another cluster, one this build cannot read, or records lost
 *       with no snapshot: nothing from that record on is mirrored, the follower stops and
 *       {@link #failure()} completes exceptionally with the reason.</li>
 * </ul>
 *
 * <p>One thread ({@code kproxy-kafka-follower}); {@link #status()} and the listeners are
 * thread-safe. {@link #close()} stops it within about one poll (the owner closes the topic log
 * right after, which ends a waiting tail).
 */
public final class Follower implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Follower.class);
    private static final Duration BACKOFF_MIN = Duration.ofSeconds(1);
    private static final Duration BACKOFF_MAX = Duration.ofSeconds(30);
    private static final int BATCH = 512;

    /**
     * @param connected    the last call to the broker succeeded
     * @param lastMirrored the highest Kafka offset mirrored (or skipped as not this node's); -1 before any
     * @param lag          records on the topic after it, as last measured; -1 unknown
     */
    public record Status(boolean connected, long lastMirrored, long lag) {
    }

    private final KafkaEventLog topic;
    private final EventLog local;
    private final NodeName node;
    private final List<Consumer<Status>> listeners = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Void> failure = new CompletableFuture<>();
    private volatile Status status = new Status(false, -1, -1);
    private volatile boolean stopping;
    private Thread thread;
    /** The follower thread's position: the Kafka offset to read next (-1: none mirrored yet). */
    private long next = -1;

    public Follower(KafkaEventLog topic, EventLog local, NodeName node) {
        this.topic = topic;
        this.local = local;
        this.node = node;
    }

    /** Called on every status change, on the follower's thread; must not block. */
    public void addListener(Consumer<Status> listener) {
        listeners.add(listener);
    }

    public Status status() {
        return status;
    }

    /** Completes exceptionally when the follower stopped for good (never completes normally). */
    public CompletableFuture<Void> failure() {
        return failure;
    }

    public synchronized Follower start() {
        if (thread == null) {
            thread = Thread.ofPlatform().name("kproxy-kafka-follower").daemon().start(this::run);
        }
        return this;
    }

    private void run() {
        OptionalLong last = MirroredOffsets.lastIn(local);
        next = last.isPresent() ? last.getAsLong() + 1 : -1;
        LOG.info("decision=follow topic={} node={} resume_after={}", topic.options().topic(), node, last.isPresent() ? last.getAsLong() : "none");
        Duration backoff = BACKOFF_MIN;
        while (!stopping) {
            try {
                next = position(next);
                publish(new Status(true, next - 1, Math.max(0, topic.nextOffset() - next)));
                backoff = BACKOFF_MIN;
                mirror();
            } catch (EventLogException e) {
                if (stopping) {
                    break;
                }
                publish(new Status(false, status.lastMirrored(), status.lag()));
                if (e.kind() == EventLogException.Kind.CORRUPT && e.lostFirst() >= 0) {
                    LOG.warn("decision=restart-from-snapshot reason=\"records removed by retention\" lost_first={} lost_last={}",
                            e.lostFirst(), e.lostLast());
                    continue; // position() starts from the newest snapshot: next is before the topic's start now
                }
                if (!e.retryable()) {
                    LOG.error("decision=stop-following reason=\"{}\" next_offset={}", e.getMessage(), next);
                    failure.completeExceptionally(e);
                    return;
                }
                LOG.warn("decision=retry-follow backoff={} error=\"{}\"", backoff, e.getMessage());
                sleep(backoff);
                backoff = backoff.multipliedBy(2).compareTo(BACKOFF_MAX) > 0 ? BACKOFF_MAX : backoff.multipliedBy(2);
            } catch (RuntimeException e) {
                // an undecodable snapshot, a bug: stop, say why, keep the rules
                publish(new Status(false, status.lastMirrored(), status.lag()));
                LOG.error("decision=stop-following reason=\"{}\" next_offset={}", e.toString(), next);
                failure.completeExceptionally(e);
                return;
            }
        }
    }

    /**
     * Where to read next: {@code from} while the topic still holds it; otherwise (none mirrored
     * yet, or retention removed it) past the newest snapshot, whose events are mirrored now; or
     * offset 0 for a new follower of a topic that holds its start and has no snapshot yet.
     */
    private long position(long from) {
        long first = topic.firstOffset();
        if (from >= 0 && from >= first) {
            return from;
        }
        Optional<Snapshot> snap = topic.snapshotAtOrBefore(Long.MAX_VALUE);
        if (snap.isPresent()) {
            TopicImage image = TopicImage.decode(snap.get().offset(), snap.get().data());
            List<EventLog.Draft> drafts = new ArrayList<>();
            for (ClusterEvent e : image.events()) {
                if (mine(e)) {
                    drafts.add(new EventLog.Draft(MirroredOffsets.source(image.offset(), TopicImage.SNAPSHOT_SOURCE), e));
                }
            }
            appendLocal(drafts);
            LOG.info("decision=mirrored-snapshot offset={} records={}", image.offset(), drafts.size());
            return image.offset() + 1;
        }
        if (first == 0) {
            return 0;
        }
        throw new KafkaLogException(KafkaLogException.Problem.PREFIX_REMOVED, "records " + Math.max(from, 0) + ".." + (first - 1)
                + " were removed by retention and the topic has no snapshot to start from");
    }

    /** Mirrors the tail from {@link #next} until it fails or the follower stops, moving {@link #next} past each batch mirrored. */
    private void mirror() {
        long lastLag = System.nanoTime();
        // Fair backpressure: a batch closed by the timer waits for demand (without it, a timer
        // firing while the previous batch is being appended overflows, ClusterLogEndToEndIT saw it).
        Iterable<List<Envelope>> batches = topic.tail(next).bufferTimeout(BATCH, Duration.ofMillis(5), true).toIterable(1);
        for (List<Envelope> batch : batches) {
            if (stopping) {
                break;
            }
            List<EventLog.Draft> drafts = new ArrayList<>(batch.size());
            for (Envelope e : batch) {
                if (mine(e.event())) {
                    drafts.add(new EventLog.Draft(MirroredOffsets.source(e.offset(), e.source()), e.event()));
                }
            }
            if (!drafts.isEmpty()) {
                appendLocal(drafts);
            }
            next = batch.getLast().offset() + 1;
            long lag = status.lag();
            // Measured at most once a second while batches are full, and always after one that is
            // not (the tail had no more): otherwise a follower that caught up kept the lag of its
            // last full batch (FollowerCatchUpIT found it).
            if (batch.size() < BATCH || System.nanoTime() - lastLag > Duration.ofSeconds(1).toNanos()) {
                lag = Math.max(0, topic.nextOffset() - next);
                lastLag = System.nanoTime();
            }
            publish(new Status(true, next - 1, lag));
        }
    }

    /** Appends to the local journal, waiting until durable; its refusal is thrown as the journal's exception. */
    private void appendLocal(List<EventLog.Draft> drafts) {
        try {
            local.append(drafts).join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    private boolean mine(ClusterEvent e) {
        return NodeFacts.forNode(node, e);
    }

    private void publish(Status s) {
        Status old = status;
        status = s;
        if (old.connected() != s.connected()) {
            LOG.info("decision=follower-{} last_mirrored={} lag={}", s.connected() ? "connected" : "disconnected", s.lastMirrored(), s.lag());
        }
        for (Consumer<Status> l : listeners) {
            l.accept(s);
        }
    }

    private void sleep(Duration d) {
        long end = System.nanoTime() + d.toNanos();
        while (!stopping && System.nanoTime() < end) {
            try {
                Thread.sleep(Math.min(100, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Stops following; the caller closes the topic log next (that ends a waiting tail). */
    @Override
    public void close() {
        stopping = true;
    }

    /** Waits at most {@code d} for the thread to end (after {@link #close()} and the topic's close). */
    public void await(Duration d) throws InterruptedException {
        Thread t;
        synchronized (this) {
            t = thread;
        }
        if (t != null) {
            t.join(d.toMillis());
        }
    }
}
