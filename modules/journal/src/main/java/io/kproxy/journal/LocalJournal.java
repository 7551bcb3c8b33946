package io.kproxy.journal;

import io.kproxy.events.Envelope;
import io.kproxy.journal.local.DirectoryLock;
import io.kproxy.journal.local.FileSync;
import io.kproxy.journal.local.GroupCommitWriter;
import io.kproxy.journal.local.JournalReader;
import io.kproxy.journal.local.JournalState;
import io.kproxy.journal.local.Recovery;
import io.kproxy.journal.local.Retention;
import io.kproxy.journal.local.SegmentFiles;
import io.kproxy.journal.local.SnapshotStore;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.journal.spi.EventLogException.Kind;
import io.kproxy.journal.spi.Snapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.core.publisher.Flux;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded event log: a directory of segment files ({@code [length][crc32c][payload]}
 * records), written by one group-committing writer thread, with a sparse offset and time index,
 * snapshots and retention. An append is acknowledged only after its fsync; a crash loses only
 * unacknowledged appends, and recovery cuts a torn tail and says what it cut. Damage that is not a
 * torn tail (corruption, a deleted or unreadable file) is never cut: its offsets are reported
 * ({@link #openProblems()}), refused to readers, never given to new records, and no snapshot ahead
 * of the intact records is used. See {@code modules/journal/README.md} for the on-disk format and
 * the guarantees.
 *
 * <p>One writer per directory, enforced with a file lock ({@link Kind#LOCKED} for a second one).
 * {@link #openReadOnly(Path)} takes no lock and changes nothing, for tools on a copied journal.
 *
 * <p>Threading: every method is safe from any thread. {@link #append} never blocks on I/O (it
 * encodes on the caller's thread); its future completes on the journal's writer thread, so
 * dependent actions that do real work belong in the {@code ...Async} variants, and a callback must
 * never wait for another append (the writer would wait for itself);
 * reads, lookups and snapshot calls block on I/O; readers see only durable records and run while
 * the writer appends. Live tails are woken on a journal-owned thread; a slow subscriber should
 * {@code publishOn} its own scheduler. No method accepts or returns null.
 */
public final class LocalJournal implements EventLog {

    private static final Logger LOG = LoggerFactory.getLogger(LocalJournal.class);

    private final Path dir;
    private final boolean readOnly;
    private final Clock clock;
    private final DirectoryLock lock;
    private final JournalState state;
    private final JournalReader reader;
    private final SnapshotStore snapshots;
    private final Retention retention;
    private final List<JournalProblem> openProblems;
    private final JournalProblem tornTail;
    private final TailNotifier notifier;
    private final GroupCommitWriter writer;
    private final AtomicBoolean closed = new AtomicBoolean();

    private LocalJournal(JournalOptions options, boolean readOnly, FileSync sync) throws IOException {
        this.dir = options.directory();
        this.readOnly = readOnly;
        this.clock = options.clock();
        if (readOnly) {
            if (!Files.isDirectory(dir)) {
                throw new EventLogException(Kind.UNAVAILABLE, "no journal directory at " + dir);
            }
            this.lock = null;
        } else {
            if (SegmentFiles.ensurePrivateDir(dir)) {
                LOG.info("journal.permissions tightened dir={} mode=0700", dir);
            }
            this.lock = DirectoryLock.acquire(dir);
        }
        try {
            Recovery.Result r = Recovery.open(dir, options.indexIntervalBytes(), readOnly);
            this.state = r.state();
            this.snapshots = r.snapshots();
            this.openProblems = r.problems();
            this.tornTail = r.tornTail();
            this.reader = new JournalReader(state::view);
            this.retention = new Retention(dir, state, snapshots, options.retention());
            this.notifier = new TailNotifier(this::readForTail, "kproxy-journal-tail-" + dir.getFileName());
            this.writer = readOnly ? null
                    : new GroupCommitWriter(options, state, r.lastTime(), sync, notifier::signal, this::retentionQuietly);
        } catch (IOException | RuntimeException e) {
            if (lock != null) {
                lock.close();
            }
            throw e;
        }
        if (!readOnly) {
            retentionQuietly();
        }
        LOG.info("journal.opened dir={} readOnly={} segments={} firstOffset={} nextOffset={} fsyncWindow={} problems={}", dir, readOnly,
                state.view().size(), firstOffset(), nextOffset(), options.fsyncWindow(), openProblems.size());
    }

    /** Opens (creating if needed) the journal in {@code options.directory()} for writing. */
    public static LocalJournal open(JournalOptions options) {
        return open(options, FileSync.DATA);
    }

    static LocalJournal open(JournalOptions options, FileSync sync) {
        try {
            return new LocalJournal(options, false, sync);
        } catch (IOException e) {
            throw new EventLogException(SegmentFiles.isNoSpace(e) ? Kind.FULL : Kind.UNAVAILABLE,
                    "cannot open journal " + options.directory() + ": " + e, e);
        }
    }

    /**
     * Opens an existing journal for reading only: no lock, no truncation, no file written. A torn
     * tail is reported ({@link #tornTail()}) and reading stops before it; damage is reported as a
     * read-write open would find it (the same lost offsets), without moving anything aside. The
     * view is the journal as it was when opened.
     */
    public static LocalJournal openReadOnly(Path directory) {
        try {
            return new LocalJournal(JournalOptions.defaults(directory), true, FileSync.DATA);
        } catch (IOException e) {
            throw new EventLogException(Kind.UNAVAILABLE, "cannot open journal " + directory + " read-only: " + e, e);
        }
    }

    @Override
    public CompletableFuture<List<Long>> append(List<Draft> drafts) {
        if (readOnly) {
            return CompletableFuture.failedFuture(new EventLogException(Kind.READ_ONLY, "journal " + dir + " is open read-only"));
        }
        if (closed.get()) {
            return CompletableFuture.failedFuture(new EventLogException(Kind.CLOSED, "journal " + dir + " is closed"));
        }
        if (drafts.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        return writer.append(drafts);
    }

    /**
     * {@inheritDoc} Records before {@link #firstOffset()} were removed by retention: a read from
     * before it starts at it (the returned offsets show the jump).
     *
     * <p>The bulk read path, for replays and every other reader of many records: frames are
     * checked on the calling thread and the records decoded in batches by {@link ReplayDecoder}
     * (the caller plus the shared decoder threads); fewer than {@link ReplayDecoder#PARALLEL_MIN}
     * records are decoded on the caller alone. Blocks until all are decoded. The result is the
     * same as reading the records one at a time, records and errors alike; the returned list is
     * the caller's (mutable). Read pages of a few thousand records: a page's envelopes are all
     * held in memory.
     *
     * @throws EventLogException {@link Kind#CORRUPT} when a record in the range is damaged
     */
    @Override
    public List<Envelope> read(long fromOffset, int max) {
        checkOpen();
        try {
            return reader.read(fromOffset, max);
        } catch (EventLogException e) {
            throw closed.get() ? closedError() : e;
        }
    }

    private List<Envelope> readForTail(long fromOffset, int max) {
        checkOpen();
        try {
            return reader.readUpToDamage(fromOffset, max);
        } catch (EventLogException e) {
            throw closed.get() ? closedError() : e;
        }
    }

    /**
     * {@inheritDoc} Damage ends the tail with a {@link Kind#CORRUPT} error after every record before
     * it. Catching up on history reads through the bulk path of {@link #read} (pages of up to 512
     * records, as many as the subscriber requested), on the requesting thread.
     */
    @Override
    public Flux<Envelope> tail(long fromOffset) {
        return notifier.tail(fromOffset);
    }

    @Override
    public long nextOffset() {
        return state.view().nextOffset();
    }

    @Override
    public long firstOffset() {
        return state.view().firstOffset();
    }

    @Override
    public OptionalLong offsetAt(Instant time) {
        checkOpen();
        return reader.offsetAt(time);
    }

    /**
     * {@inheritDoc} The offset must be one the journal holds durably; the snapshot file is written
     * to a temporary name, forced, renamed and the directory forced.
     *
     * @throws EventLogException {@link Kind#FULL} when the disk is full (nothing is left behind)
     */
    @Override
    public void storeSnapshot(long offset, byte[] data) {
        checkOpen();
        if (offset < 0 || offset >= nextOffset()) {
            throw new IllegalArgumentException("snapshot offset " + offset + " is not a durable record (next offset " + nextOffset() + ")");
        }
        snapshots.store(offset, data);
    }

    @Override
    public Optional<Snapshot> snapshotAtOrBefore(long offset) {
        checkOpen();
        long last = nextOffset() - 1;
        return last < 0 || offset < 0 ? Optional.empty() : snapshots.atOrBefore(Math.min(offset, last));
    }

    /**
     * What the open found wrong (empty for a healthy journal), each with its file and offsets:
     * the torn tail, lost ranges (also those remembered in {@code lost-ranges}), stray segments,
     * files that are not regular files, unusable snapshots, rebuilt indexes.
     */
    public List<JournalProblem> openProblems() {
        return openProblems;
    }

    /** The torn tail recovery cut (read-write) or found (read-only), if any. */
    public Optional<JournalProblem> tornTail() {
        return Optional.ofNullable(tornTail);
    }

    /** Applies the retention policy now; returns how many segments were deleted. Blocks on I/O. */
    public int enforceRetention() {
        checkOpen();
        if (readOnly) {
            return 0;
        }
        try {
            return retention.apply(clock.instant());
        } catch (IOException e) {
            throw new EventLogException(Kind.UNAVAILABLE, "retention in " + dir + " failed: " + e, e);
        }
    }

    private void retentionQuietly() {
        try {
            retention.apply(clock.instant());
        } catch (IOException | RuntimeException e) {
            LOG.warn("journal.retention failed dir={} error=\"{}\"", dir, e.toString());
        }
    }

    public Path directory() {
        return dir;
    }

    public boolean isReadOnly() {
        return readOnly;
    }

    JournalState state() {
        return state;
    }

    JournalReader reader() {
        return reader;
    }

    SnapshotStore snapshots() {
        return snapshots;
    }

    private void checkOpen() {
        if (closed.get()) {
            throw closedError();
        }
    }

    private EventLogException closedError() {
        return new EventLogException(Kind.CLOSED, "journal " + dir + " is closed");
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (writer != null) {
            writer.close(Duration.ofSeconds(30));
        }
        notifier.close(closedError());
        state.closeAll();
        if (lock != null) {
            lock.close();
        }
        LOG.info("journal.closed dir={} nextOffset={}", dir, nextOffset());
    }
}
