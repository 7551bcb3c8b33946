package io.kproxy.journal.kafka;

import io.kproxy.events.BatchDecodeException;
import io.kproxy.events.EventCodec;
import io.kproxy.events.EventDecodeException;
import io.kproxy.events.Envelope;
import io.kproxy.events.RawRecord;
import io.kproxy.journal.LiveTail;
import io.kproxy.journal.ReplayDecoder;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.journal.spi.Snapshot;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;

/**
 * The cluster's {@link EventLog} on Kafka (docs/kafka.md): partition 0 of one topic, each record
 * the local journal's record bytes ({@link EventCodec}, same envelopes) with a
 * {@code kproxy-cluster} header; a record's Kafka offset is its log offset and its Kafka
 * timestamp is its {@code recordedAt} (milliseconds), so {@link #offsetAt} uses Kafka's timestamp
 * index. Snapshots go to the compacted side topic {@code <topic>.snapshots}.
 *
 * <p>Offsets: dense between transaction markers. A transactional writer's commit takes one
 * offset that no record has, so offsets may skip; readers continue after the last record they
 * got (as {@link io.kproxy.journal.LogPages} does), they never count. Records before
 * {@link #firstOffset()} were removed by retention: a read of them fails with
 * {@link EventLogException.Kind#CORRUPT} naming the range, as the local journal does for
 * missing records.
 *
 * <p>Refusals ({@link KafkaLogException#problem()}): an unreachable broker, a missing topic, a
 * topic with more than one partition (at {@link #open}); a record of another cluster or one the
 * codec cannot read (at the read that reaches it: nothing after it is served); a fenced writer.
 *
 * <p>Thread-safe. {@link #append} does not block (one writer thread; its future completes once
 * the broker acknowledged the records to all in-sync replicas). Reads, {@link #offsetAt}, the
 * offsets and the snapshot methods block on the broker, at most about the timeout each.
 */
public final class KafkaEventLog implements EventLog {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaEventLog.class);
    private static final byte[] SNAPSHOT_KEY = "latest".getBytes(StandardCharsets.UTF_8);

    private final KafkaLogOptions options;
    private final TopicReader reader;
    private final TopicWriter writer;
    private final ExecutorService writerThread;
    private final LiveTail tail = new LiveTail(this::read);
    private final TailWatcher watcher;
    private final byte[] cluster;
    private Instant last = Instant.EPOCH;
    private final java.util.concurrent.atomic.AtomicBoolean closing = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile boolean closed;

    private KafkaEventLog(KafkaLogOptions options) {
        this.options = options;
        this.cluster = options.cluster().getBytes(StandardCharsets.UTF_8);
        this.reader = new TopicReader(options, "reader");
        this.writer = new TopicWriter(options);
        this.writerThread = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("kproxy-kafka-writer").daemon().factory());
        this.watcher = new TailWatcher(options, tail);
    }

    /**
     * Opens the log: checks both topics exist with one partition each (an unreachable broker, a
     * missing topic and a wrong layout are refused here). Makes no producer until the first append.
     */
    public static KafkaEventLog open(KafkaLogOptions options) {
        Topics.check(options);
        KafkaEventLog log = new KafkaEventLog(options);
        LOG.info("decision=kafka-log-open topic={} cluster={} bootstrap={} transactional={}", options.topic(), options.cluster(),
                options.bootstrapServers(), !options.transactionalId().isEmpty());
        return log;
    }

    public KafkaLogOptions options() {
        return options;
    }

    @Override
    public CompletableFuture<List<Long>> append(List<Draft> drafts) {
        if (closed) {
            return CompletableFuture.failedFuture(new EventLogException(EventLogException.Kind.CLOSED, "event log is closed"));
        }
        CompletableFuture<List<Long>> f = new CompletableFuture<>();
        writerThread.execute(() -> {
            try {
                Instant now = options.clock().instant();
                if (now.isBefore(last)) {
                    now = last; // recordedAt never goes backwards, so the timestamp index stays monotonic
                }
                List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(drafts.size());
                for (Draft d : drafts) {
                    records.add(new ProducerRecord<>(options.topic(), 0, now.toEpochMilli(), null,
                            EventCodec.encode(now, d.source(), d.event()), headers()));
                }
                List<Long> offsets = writer.send(records);
                last = now;
                f.complete(List.copyOf(offsets));
            } catch (RuntimeException e) {
                f.completeExceptionally(e);
            }
        });
        return f;
    }

    /**
     * Makes the writer now, before any append (blocks at most about the timeout): with a
     * transactional id, {@code initTransactions} fences every older writer with the same id and
     * aborts its open transaction, so what {@link #read} returns afterwards is final. The new
     * recorder leader calls it before it folds the topic (docs/kafka.md, "Fencing").
     */
    public void fence() {
        requireOpen();
        try {
            CompletableFuture.runAsync(writer::ready, writerThread).join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : e;
        }
    }

    @Override
    public List<Envelope> read(long fromOffset, int max) {
        requireOpen();
        List<ConsumerRecord<byte[], byte[]>> raw = reader.read(options.topic(), Math.max(0, fromOffset), max);
        List<RawRecord> records = new ArrayList<>(raw.size());
        for (ConsumerRecord<byte[], byte[]> r : raw) {
            if (r.value() == null) {
                throw new KafkaLogException(KafkaLogException.Problem.UNKNOWN_RECORD, "record " + r.offset() + " of topic " + options.topic()
                        + " has no value");
            }
            records.add(new RawRecord(r.offset(), r.value()));
        }
        try {
            return ReplayDecoder.decode(records);
        } catch (BatchDecodeException e) {
            EventDecodeException cause = e.getCause();
            throw new KafkaLogException(KafkaLogException.Problem.UNKNOWN_RECORD, "record " + e.offset() + " of topic " + options.topic()
                    + " cannot be read by this build (format version " + EventCodec.CURRENT_VERSION + "): " + cause.getMessage(), cause);
        }
    }

    @Override
    public Flux<Envelope> tail(long fromOffset) {
        requireOpen();
        watcher.start();
        return tail.from(fromOffset);
    }

    @Override
    public long nextOffset() {
        requireOpen();
        return reader.end(options.topic());
    }

    @Override
    public long firstOffset() {
        requireOpen();
        return reader.begin(options.topic());
    }

    /**
     * Kafka's timestamp index gives the first record stamped at or after the time's millisecond;
     * the records of that millisecond stamped before {@code time} are stepped over.
     */
    @Override
    public OptionalLong offsetAt(Instant time) {
        requireOpen();
        long at = reader.offsetForTime(options.topic(), time.toEpochMilli());
        while (at >= 0) {
            List<Envelope> page = read(at, 256);
            if (page.isEmpty()) {
                return OptionalLong.empty();
            }
            for (Envelope e : page) {
                if (!e.recordedAt().isBefore(time)) {
                    return OptionalLong.of(e.offset());
                }
            }
            at = page.getLast().offset() + 1;
        }
        return OptionalLong.empty();
    }

    /** Appends the snapshot to the side topic (blocks until acknowledged): {@code [offset u64][data]}, key {@code latest}. */
    @Override
    public void storeSnapshot(long offset, byte[] data) {
        requireOpen();
        byte[] value = ByteBuffer.allocate(8 + data.length).putLong(offset).put(data).array();
        ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(options.snapshotTopic(), 0, null, SNAPSHOT_KEY, value, headers());
        CompletableFuture<List<Long>> f = CompletableFuture.supplyAsync(() -> writer.send(List.of(r)), writerThread);
        try {
            f.join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : e;
        }
        LOG.info("decision=snapshot-stored topic={} offset={} bytes={}", options.snapshotTopic(), offset, data.length);
    }

    /**
     * The newest snapshot still in the side topic that covers at most {@code offset} and that the
     * log can continue: the log holds every record after it (it is not older than the prefix
     * retention removed) and it is not ahead of the log's end.
     */
    @Override
    public Optional<Snapshot> snapshotAtOrBefore(long offset) {
        requireOpen();
        long first = firstOffset();
        long next = nextOffset();
        Snapshot best = null;
        long at = reader.begin(options.snapshotTopic());
        long end = reader.end(options.snapshotTopic());
        while (at < end) {
            List<ConsumerRecord<byte[], byte[]>> page = reader.read(options.snapshotTopic(), at, 64);
            if (page.isEmpty()) {
                break;
            }
            for (ConsumerRecord<byte[], byte[]> r : page) {
                if (r.value() == null || r.value().length < 8) {
                    continue; // a tombstone or a record of no snapshot
                }
                ByteBuffer b = ByteBuffer.wrap(r.value());
                long covers = b.getLong();
                if (covers <= offset && covers >= first - 1 && covers < next && (best == null || covers >= best.offset())) {
                    byte[] data = new byte[b.remaining()];
                    b.get(data);
                    best = new Snapshot(covers, data);
                }
            }
            at = page.getLast().offset() + 1;
        }
        return Optional.ofNullable(best);
    }

    private RecordHeaders headers() {
        RecordHeaders h = new RecordHeaders();
        h.add(TopicReader.CLUSTER_HEADER, cluster);
        return h;
    }

    private void requireOpen() {
        if (closed) {
            throw new EventLogException(EventLogException.Kind.CLOSED, "event log is closed");
        }
    }

    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        closed = true;
        watcher.close();
        tail.fail(new EventLogException(EventLogException.Kind.CLOSED, "event log is closed"));
        writerThread.execute(writer::close);
        writerThread.shutdown();
        try {
            if (!writerThread.awaitTermination(options.timeout().toMillis() + 5_000, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                writerThread.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        reader.close();
        LOG.info("decision=kafka-log-closed topic={}", options.topic());
    }
}
