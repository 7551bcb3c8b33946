package io.kproxy.journal.local;

import io.kproxy.journal.local.GroupCommitWriter.Pending;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.journal.spi.EventLogException.Kind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path of one batch, on the writer thread only: frames are staged in a direct buffer,
 * written with one positional write, and forced; then, and only then, index entries are added,
 * a new {@link View} is published and the futures complete. A segment is rolled between appends
 * when the next one would overflow it: the full segment is forced, the new one created (its name
 * made durable by a directory fsync), the sealed segment's index written.
 *
 * <p>On an I/O error (ENOSPC, EIO) whatever was written past the last durable byte is truncated
 * away and forced, appends already durable complete, the others fail with
 * {@link Kind#FULL} or {@link Kind#UNAVAILABLE}, and the journal goes on. If even the undo
 * fails, the journal is broken: every later append fails until it is reopened (and recovery
 * truncates the tail). We never retry an fsync after a failure: after a failed fsync Linux may
 * have dropped the dirty pages and a second fsync would falsely succeed (PostgreSQL's
 * "fsyncgate", 2018).
 */
final class CommitBatch {

    private static final Logger LOG = LoggerFactory.getLogger(CommitBatch.class);

    private final Path dir;
    private final JournalState state;
    private final long segmentBytes;
    private final int interval;
    private final FileSync sync;
    private final Runnable onDurable;
    private final Runnable afterRoll;

    private Segment active;
    private FileChannel out;
    private long size;
    private long next;
    private Instant lastTime;
    private long lastIndexed;
    private ByteBuffer staging = ByteBuffer.allocateDirect(1 << 20);
    private final List<long[]> stagedIndex = new ArrayList<>();
    private final List<Instant> stagedIndexTimes = new ArrayList<>();
    private long stagedLastIndexed;
    private int stagedRecords;
    private Instant stagedLastTime;

    CommitBatch(Path dir, JournalState state, long segmentBytes, int interval, FileSync sync, Runnable onDurable, Runnable afterRoll)
            throws IOException {
        this.dir = dir;
        this.state = state;
        this.segmentBytes = segmentBytes;
        this.interval = interval;
        this.sync = sync;
        this.onDurable = onDurable;
        this.afterRoll = afterRoll;
        View v = state.view();
        SegmentRef last = v.last();
        this.active = last.segment();
        this.size = last.limit();
        this.next = v.nextOffset();
        this.lastTime = last.lastTime();
        SparseIndex idx = active.index();
        this.lastIndexed = idx.size() == 0 ? -1 : idx.position(idx.size() - 1);
        this.stagedLastIndexed = lastIndexed;
        this.out = Segments.openForWrite(active.path());
    }

    /** Writes {@code batch}; returns the error that broke the journal, or null. */
    EventLogException write(List<Pending> batch) {
        long[] firsts = new long[batch.size()];
        List<Integer> chunk = new ArrayList<>();
        int durable = 0;
        IOException failure = null;
        try {
            for (int i = 0; i < batch.size(); i++) {
                Pending p = batch.get(i);
                long used = size + staging.position();
                if (used > SegmentFiles.HEADER && used + p.bytes() > segmentBytes) {
                    durable += flush(chunk);
                    roll();
                }
                firsts[i] = next + stagedRecords;
                stage(p);
                chunk.add(i);
            }
            durable += flush(chunk);
        } catch (IOException e) {
            failure = e;
        }
        EventLogException brokenBy = failure == null ? null : undo(failure);
        for (int i = 0; i < durable; i++) {
            List<Long> offsets = new ArrayList<>(batch.get(i).payloads().size());
            for (int k = 0; k < batch.get(i).payloads().size(); k++) {
                offsets.add(firsts[i] + k);
            }
            batch.get(i).future().complete(List.copyOf(offsets));
        }
        if (failure != null) {
            Kind kind = SegmentFiles.isNoSpace(failure) ? Kind.FULL : Kind.UNAVAILABLE;
            EventLogException why = new EventLogException(kind, "journal " + dir + ": the append could not be made durable and was not kept ("
                    + (kind == Kind.FULL ? "no space left on device" : failure.toString()) + ")", failure);
            for (int i = durable; i < batch.size(); i++) {
                batch.get(i).future().completeExceptionally(brokenBy != null ? brokenBy : why);
            }
        }
        if (durable > 0) {
            onDurable.run();
        }
        return brokenBy;
    }

    private void stage(Pending p) {
        if (staging.remaining() < p.bytes()) {
            staging = GroupCommitWriter.grow(staging, p.bytes());
        }
        for (byte[] payload : p.payloads()) {
            long pos = size + staging.position();
            if (stagedLastIndexed < 0 || pos - stagedLastIndexed >= interval) {
                stagedIndex.add(new long[] {next + stagedRecords, pos});
                stagedIndexTimes.add(p.at());
                stagedLastIndexed = pos;
            }
            RecordFrame.put(staging, payload);
            stagedRecords++;
        }
        stagedLastTime = p.at();
    }

    /** Writes and forces what is staged, then publishes it. Returns how many appends became durable. */
    private int flush(List<Integer> chunk) throws IOException {
        if (stagedRecords == 0) {
            return 0;
        }
        staging.flip();
        int bytes = staging.remaining();
        SegmentFiles.writeFully(out, staging, size);
        sync.force(out);
        for (int i = 0; i < stagedIndex.size(); i++) {
            active.index().add(stagedIndex.get(i)[0], stagedIndex.get(i)[1], stagedIndexTimes.get(i));
        }
        size += bytes;
        next += stagedRecords;
        lastTime = stagedLastTime;
        lastIndexed = stagedLastIndexed;
        state.publishLast(new SegmentRef(active, size, next - 1, lastTime, true), next);
        int n = chunk.size();
        clearStaged();
        chunk.clear();
        return n;
    }

    private void clearStaged() {
        staging.clear();
        stagedIndex.clear();
        stagedIndexTimes.clear();
        stagedRecords = 0;
        stagedLastIndexed = lastIndexed;
    }

    private void roll() throws IOException {
        long base = next;
        FileChannel fresh = Segments.create(dir, base);
        Segment sealed = active;
        long sealedSize = size;
        Instant sealedLast = lastTime;
        try {
            out.close();
        } catch (IOException e) {
            LOG.debug("journal.segment close after force failed segment={} error=\"{}\"", sealed.name(), e.toString());
        }
        out = fresh;
        try {
            IndexFile.store(dir.resolve(SegmentFiles.indexName(sealed.base())), sealed.base(), sealed.index(), sealedSize, next - 1, sealedLast);
        } catch (IOException e) {
            LOG.warn("journal.index not written segment={} error=\"{}\" (it is rebuilt on the next open)", sealed.name(), e.toString());
        }
        active = new Segment(base, dir.resolve(SegmentFiles.segmentName(base)), new SparseIndex());
        state.publishRoll(new SegmentRef(sealed, sealedSize, next - 1, sealedLast, false),
                new SegmentRef(active, SegmentFiles.HEADER, next - 1, Instant.EPOCH, true));
        size = SegmentFiles.HEADER;
        lastIndexed = -1;
        stagedLastIndexed = -1;
        LOG.info("journal.segment rolled sealed={} records={}..{} bytes={} active={}", sealed.name(), sealed.base(), next - 1, sealedSize,
                active.name());
        afterRoll.run();
    }

    /** Truncates what was written but not made durable; returns an error if that fails too (the journal is then broken). */
    private EventLogException undo(IOException failure) {
        LOG.warn("journal.append failed segment={} durableBytes={} nextOffset={} error=\"{}\"", active.name(), size, next, failure.toString());
        clearStaged();
        try {
            out.truncate(size);
            sync.force(out);
            return null;
        } catch (IOException e) {
            failure.addSuppressed(e);
            LOG.error("journal.writer broken segment={} error=\"{}\" (reopen the journal to recover)", active.name(), e.toString());
            return new EventLogException(Kind.UNAVAILABLE, "journal " + dir + " stopped writing after an I/O error it could not undo ("
                    + e + "); reopen it to recover", failure);
        }
    }

    void closeChannel() {
        try {
            out.close();
        } catch (IOException e) {
            LOG.debug("journal.writer close error=\"{}\"", e.toString());
        }
    }
}
