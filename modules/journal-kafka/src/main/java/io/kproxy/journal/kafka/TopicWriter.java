package io.kproxy.journal.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The producer side: {@code acks=all}, idempotent (the broker drops a retried batch it already
 * has, so a retry never duplicates a record), and, with a transactional id, one transaction per
 * append so that an append is kept or lost whole and a newer producer with the same id fences
 * this one ({@code initTransactions} bumps the producer epoch; the broker then refuses this
 * producer's writes and aborts its open transaction). Not thread-safe: {@link KafkaEventLog}
 * calls it from its one writer thread. Each call blocks at most about the options' timeout.
 */
final class TopicWriter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TopicWriter.class);

    private final KafkaLogOptions options;
    private KafkaProducer<byte[], byte[]> producer;
    private boolean fenced;

    TopicWriter(KafkaLogOptions options) {
        this.options = options;
    }

    /** Sends the records (in one transaction when transactional); the offsets they got, in order. */
    List<Long> send(List<ProducerRecord<byte[], byte[]>> records) {
        if (fenced) {
            throw new KafkaLogException(KafkaLogException.Problem.FENCED, "this writer was fenced by a newer one with transactional id "
                    + options.transactionalId() + "; it appends nothing more");
        }
        boolean tx = !options.transactionalId().isEmpty();
        try {
            KafkaProducer<byte[], byte[]> p = producer();
            if (tx) {
                p.beginTransaction();
            }
            List<Future<RecordMetadata>> sent = new ArrayList<>(records.size());
            for (ProducerRecord<byte[], byte[]> r : records) {
                sent.add(p.send(r));
            }
            if (tx) {
                p.commitTransaction();
            } else {
                p.flush();
            }
            List<Long> offsets = new ArrayList<>(sent.size());
            for (Future<RecordMetadata> f : sent) {
                offsets.add(f.get().offset());
            }
            return offsets;
        } catch (ProducerFencedException | InvalidProducerEpochException | TransactionalIdAuthorizationException e) {
            fenced = true;
            discard();
            LOG.warn("decision=stop-appending reason=fenced transactional_id={} error=\"{}\"", options.transactionalId(), e.toString());
            throw new KafkaLogException(KafkaLogException.Problem.FENCED, "a newer writer with transactional id " + options.transactionalId()
                    + " fenced this one", e);
        } catch (ExecutionException e) {
            discard();
            throw classify(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            discard();
            throw new KafkaLogException(KafkaLogException.Problem.UNREACHABLE, "interrupted while appending", e);
        } catch (KafkaException e) {
            discard();
            throw classify(e);
        }
    }

    /** Makes the producer (and, transactional, fences older writers with the same id). */
    void ready() {
        if (fenced) {
            throw new KafkaLogException(KafkaLogException.Problem.FENCED, "this writer was fenced by a newer one with transactional id "
                    + options.transactionalId());
        }
        try {
            producer();
        } catch (ProducerFencedException | InvalidProducerEpochException e) {
            fenced = true;
            throw new KafkaLogException(KafkaLogException.Problem.FENCED, "a newer writer fenced this one", e);
        } catch (KafkaException e) {
            throw classify(e);
        }
    }

    private KafkaLogException classify(Throwable e) {
        if (e instanceof ProducerFencedException || e instanceof InvalidProducerEpochException) {
            fenced = true;
            return new KafkaLogException(KafkaLogException.Problem.FENCED, "a newer writer with transactional id " + options.transactionalId()
                    + " fenced this one", e);
        }
        if (e instanceof org.apache.kafka.common.errors.TimeoutException || e instanceof org.apache.kafka.common.errors.RetriableException) {
            return Topics.unreachable(options, e);
        }
        return Topics.translate(options, "cannot append", e);
    }

    /**
     * After a failed append the producer is dropped (an aborted or timed-out transaction leaves a
     * transactional producer unusable); the next append makes a new one, whose
     * {@code initTransactions} also aborts whatever the old one left open.
     */
    private void discard() {
        if (producer != null) {
            try {
                producer.close(Duration.ZERO);
            } catch (KafkaException e) {
                LOG.debug("decision=continue reason=\"closing a failed producer failed\" error=\"{}\"", e.toString());
            }
            producer = null;
        }
    }

    private KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(props(), new ByteArraySerializer(), new ByteArraySerializer());
            if (!options.transactionalId().isEmpty()) {
                try {
                    p.initTransactions();
                } catch (KafkaException e) {
                    p.close(Duration.ZERO);
                    throw e;
                }
                LOG.info("decision=writer-ready transactional_id={} topic={}", options.transactionalId(), options.topic());
            }
            producer = p;
        }
        return producer;
    }

    private Properties props() {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers());
        p.setProperty(ProducerConfig.CLIENT_ID_CONFIG, options.clientId() + "-writer");
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        p.setProperty(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.setProperty(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        p.setProperty(ProducerConfig.LINGER_MS_CONFIG, "0");
        p.setProperty(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(Topics.SNAPSHOT_MAX_BYTES));
        int ms = (int) Math.min(Integer.MAX_VALUE / 2, options.timeout().toMillis());
        p.setProperty(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(ms));
        p.setProperty(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.toString(ms + 1000));
        p.setProperty(ProducerConfig.MAX_BLOCK_MS_CONFIG, Integer.toString(ms));
        p.setProperty(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "1000");
        if (!options.transactionalId().isEmpty()) {
            p.setProperty(ProducerConfig.TRANSACTIONAL_ID_CONFIG, options.transactionalId());
            p.setProperty(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, Integer.toString(Math.max(ms * 3, 10_000)));
        }
        return p;
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close(options.timeout());
            producer = null;
        }
    }
}
