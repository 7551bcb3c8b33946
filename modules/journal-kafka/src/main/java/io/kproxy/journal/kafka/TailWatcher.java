package io.kproxy.journal.kafka;

import io.kproxy.journal.LiveTail;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Wakes the log's live tails when records arrive: one thread long-polls the end of the topic
 * with its own consumer (the broker answers a fetch as soon as a record is committed, so a
 * follower hears of a record within one fetch round trip, not a polling period), and signals
 * at least every {@link #IDLE_SIGNAL} so that a tail reads, and fails, when the broker is gone.
 * Started by the first {@code tail}; {@link #close()} ends it within one poll.
 */
final class TailWatcher implements AutoCloseable {

    static final Duration IDLE_SIGNAL = Duration.ofSeconds(2);

    private final KafkaLogOptions options;
    private final LiveTail tail;
    private volatile boolean stopping;
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private Thread thread;

    TailWatcher(KafkaLogOptions options, LiveTail tail) {
        this.options = options;
        this.tail = tail;
    }

    synchronized void start() {
        if (thread == null && !stopping) {
            thread = Thread.ofPlatform().name("kproxy-kafka-tail").daemon().start(this::run);
        }
    }

    private void run() {
        TopicPartition tp = new TopicPartition(options.topic(), 0);
        KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(TopicReader.consumerProps(options, "tail"), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        consumer = c;
        try {
            c.assign(List.of(tp));
            boolean positioned = false;
            long lastSignal = System.nanoTime();
            while (!stopping) {
                try {
                    if (!positioned) {
                        c.seekToEnd(List.of(tp));
                        c.position(tp, options.timeout());
                        positioned = true;
                    }
                    boolean arrived = !c.poll(Duration.ofMillis(500)).isEmpty();
                    if (arrived || System.nanoTime() - lastSignal > IDLE_SIGNAL.toNanos()) {
                        lastSignal = System.nanoTime();
                        tail.signal();
                    }
                } catch (WakeupException e) {
                    // close() woke the poll
                } catch (KafkaException e) {
                    // broker gone or position lost: let the tails read (and fail) now, retry after a pause
                    positioned = false;
                    tail.signal();
                    lastSignal = System.nanoTime();
                    pause();
                }
            }
        } finally {
            c.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(Duration.ofSeconds(2)));
        }
    }

    private void pause() {
        try {
            Thread.sleep(1_000);
        } catch (InterruptedException e) {
            stopping = true;
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            stopping = true;
            t = thread;
        }
        KafkaConsumer<byte[], byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        if (t != null) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
