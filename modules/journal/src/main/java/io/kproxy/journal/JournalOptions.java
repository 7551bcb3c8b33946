package io.kproxy.journal;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * How to open a {@link LocalJournal}. Immutable; build from {@link #defaults(Path)} and the
 * {@code with...} methods.
 *
 * @param directory          the journal's own directory (created private to the owner)
 * @param fsyncWindow        how long the writer collects appends before one write and one fsync
 *                           (group commit); zero writes as soon as the previous fsync returned
 * @param segmentBytes       a segment is sealed and a new one started past this size
 * @param maxBatchBytes      a batch is written early once this many bytes are waiting
 * @param indexIntervalBytes bytes of records between two entries of the sparse index
 * @param retention          what may be deleted
 * @param clock              stamps {@code recordedAt} (never going backwards) and judges retention age;
 *                           injectable so that histories can be generated at chosen times
 */
public record JournalOptions(Path directory, Duration fsyncWindow, long segmentBytes, int maxBatchBytes, int indexIntervalBytes,
                             RetentionPolicy retention, Clock clock) {

    public static final Duration DEFAULT_FSYNC_WINDOW = Duration.ofMillis(1);
    public static final long DEFAULT_SEGMENT_BYTES = 64L << 20;
    public static final int DEFAULT_MAX_BATCH_BYTES = 1 << 20;
    public static final int DEFAULT_INDEX_INTERVAL_BYTES = 64 << 10;

    public JournalOptions {
        if (directory == null || fsyncWindow == null || retention == null || clock == null) {
            throw new IllegalArgumentException("directory, fsyncWindow, retention and clock are required");
        }
        if (fsyncWindow.isNegative() || fsyncWindow.compareTo(Duration.ofSeconds(1)) > 0) {
            throw new IllegalArgumentException("fsyncWindow must be between 0 and 1s: " + fsyncWindow);
        }
        if (segmentBytes < 1024 || segmentBytes > (1L << 40)) {
            throw new IllegalArgumentException("segmentBytes must be between 1 KiB and 1 TiB: " + segmentBytes);
        }
        if (maxBatchBytes < 1024) {
            throw new IllegalArgumentException("maxBatchBytes must be at least 1 KiB: " + maxBatchBytes);
        }
        if (indexIntervalBytes < 64) {
            throw new IllegalArgumentException("indexIntervalBytes must be at least 64: " + indexIntervalBytes);
        }
    }

    /** 1 ms fsync window, 64 MiB segments, 1 MiB batches, an index entry every 64 KiB, keep everything, UTC system clock. */
    public static JournalOptions defaults(Path directory) {
        return new JournalOptions(directory, DEFAULT_FSYNC_WINDOW, DEFAULT_SEGMENT_BYTES, DEFAULT_MAX_BATCH_BYTES,
                DEFAULT_INDEX_INTERVAL_BYTES, RetentionPolicy.keepAll(), Clock.systemUTC());
    }

    public JournalOptions withFsyncWindow(Duration d) {
        return new JournalOptions(directory, d, segmentBytes, maxBatchBytes, indexIntervalBytes, retention, clock);
    }

    public JournalOptions withSegmentBytes(long b) {
        return new JournalOptions(directory, fsyncWindow, b, maxBatchBytes, indexIntervalBytes, retention, clock);
    }

    public JournalOptions withMaxBatchBytes(int b) {
        return new JournalOptions(directory, fsyncWindow, segmentBytes, b, indexIntervalBytes, retention, clock);
    }

    public JournalOptions withIndexIntervalBytes(int b) {
        return new JournalOptions(directory, fsyncWindow, segmentBytes, maxBatchBytes, b, retention, clock);
    }

    public JournalOptions withRetention(RetentionPolicy r) {
        return new JournalOptions(directory, fsyncWindow, segmentBytes, maxBatchBytes, indexIntervalBytes, r, clock);
    }

    public JournalOptions withClock(Clock c) {
        return new JournalOptions(directory, fsyncWindow, segmentBytes, maxBatchBytes, indexIntervalBytes, retention, c);
    }
}
