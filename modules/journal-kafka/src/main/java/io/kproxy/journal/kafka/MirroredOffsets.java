package io.kproxy.journal.kafka;

import io.kproxy.events.Envelope;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.EventLogException;
import java.util.List;
import java.util.OptionalLong;

/**
 * How a mirrored record names its Kafka offset in the local journal: its source is
 * {@code kafka@<offset>/<source on the topic>} (a snapshot's events: {@code kafka@<offset>/kafka-snapshot}),
 * so the node's journal keeps both who recorded the fact and where it is on the topic. Pure
 * except {@link #lastIn}, which reads the local log backwards.
 */
public final class MirroredOffsets {

    /** The prefix of a mirrored record's source. */
    public static final String PREFIX = "kafka@";
    private static final int PAGE = 1024;

    private MirroredOffsets() {
    }

    /** The source a record mirrored from {@code kafkaOffset} gets. */
    public static String source(long kafkaOffset, String topicSource) {
        return PREFIX + kafkaOffset + "/" + topicSource;
    }

    /** The Kafka offset a mirrored record's source names; empty for a record of the node itself. */
    public static OptionalLong offsetOf(String source) {
        if (!source.startsWith(PREFIX)) {
            return OptionalLong.empty();
        }
        int slash = source.indexOf('/', PREFIX.length());
        try {
            return OptionalLong.of(Long.parseLong(source.substring(PREFIX.length(), slash < 0 ? source.length() : slash)));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * The highest Kafka offset mirrored into {@code local}, read from its end backwards a page at
     * a time (a page the journal lost is stepped over); empty when it holds none.
     */
    public static OptionalLong lastIn(EventLog local) {
        long first = local.firstOffset();
        long end = local.nextOffset();
        while (end > first) {
            long from = Math.max(first, end - PAGE);
            List<Envelope> page;
            try {
                page = local.read(from, (int) (end - from));
            } catch (EventLogException e) {
                if (e.kind() != EventLogException.Kind.CORRUPT) {
                    throw e;
                }
                page = List.of();
            }
            for (int i = page.size() - 1; i >= 0; i--) {
                OptionalLong o = offsetOf(page.get(i).source());
                if (o.isPresent()) {
                    return o;
                }
            }
            end = from;
        }
        return OptionalLong.empty();
    }
}
