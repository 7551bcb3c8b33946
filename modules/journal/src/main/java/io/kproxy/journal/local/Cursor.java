package io.kproxy.journal.local;

import io.kproxy.journal.spi.EventLogException;
import io.kproxy.journal.spi.EventLogException.Kind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;

/**
 * Walks records in offset order across the segments of one {@link View}, from a start offset to
 * the view's end, checking every frame and the continuity of offsets between segments. Damage
 * ends the walk with an {@link EventLogException} of kind {@link Kind#CORRUPT} naming the segment,
 * the byte position and the offsets that cannot be read; nothing past damage is ever returned.
 * Not thread-safe; one per read. Blocks on I/O.
 */
public final class Cursor {

    private final View view;
    private final Hints hints;
    private int seg;
    private FrameScanner scanner;
    private long nextOffset;
    private long offset = -1;

    /** A cursor at {@code start} (moved up to the first offset held when older). */
    Cursor(View view, long start, Hints hints) {
        this.view = view;
        this.hints = hints;
        long from = Math.max(start, view.firstOffset());
        this.nextOffset = from;
        if (from >= view.nextOffset() || view.size() == 0) {
            return;
        }
        seg = view.floor(from);
        SegmentRef ref = view.get(seg);
        long hinted = hints == null ? -1 : hints.positionOf(ref.segment(), from);
        if (hinted >= 0 && hinted <= ref.limit()) {
            scanner = new FrameScanner(ref.segment(), hinted, ref.limit());
            return;
        }
        SparseIndex index = ref.segment().index();
        int i = index.floorByOffset(from);
        if (i < 0) {
            scanner = new FrameScanner(ref.segment(), SegmentFiles.HEADER, ref.limit());
            nextOffset = ref.base();
        } else {
            scanner = new FrameScanner(ref.segment(), index.position(i), ref.limit());
            nextOffset = index.offset(i);
        }
        while (nextOffset < from) {
            if (!next()) {
                return;
            }
        }
    }

    /** Moves to the next record; false at the end of the view. */
    public boolean next() {
        if (scanner == null || nextOffset >= view.nextOffset()) {
            return false;
        }
        try {
            while (!scanner.next()) {
                if (scanner.stop() != FrameScanner.Stop.END) {
                    throw damaged(scanner.detail(), scanner.framePosition());
                }
                SegmentRef here = view.get(seg);
                if (here.damaged()) {
                    throw damaged(here.damage(), scanner.framePosition()); // the sound records of a damaged segment end here
                }
                if (seg + 1 >= view.size()) {
                    throw damaged("the segment ends before the journal's end offset " + view.nextOffset(), scanner.framePosition());
                }
                SegmentRef following = view.get(seg + 1);
                if (following.base() != nextOffset) {
                    throw damaged("the segment ends at offset " + (nextOffset - 1) + " but the next segment, "
                            + following.segment().name() + ", starts at " + following.base(), scanner.framePosition());
                }
                seg++;
                scanner = new FrameScanner(following.segment(), SegmentFiles.HEADER, following.limit());
            }
        } catch (IOException e) {
            if (!Files.isRegularFile(scanner.segment().path(), LinkOption.NOFOLLOW_LINKS)) {
                throw damaged(e.getMessage(), scanner.framePosition()); // replaced by a FIFO, directory or link: lost, not transient
            }
            throw new EventLogException(Kind.UNAVAILABLE, "reading journal segment " + scanner.segment().name() + " failed: " + e, e);
        }
        offset = nextOffset++;
        return true;
    }

    private EventLogException damaged(String why, long position) {
        long last = Math.max(nextOffset, view.expectedLast(seg));
        return new EventLogException("journal segment " + scanner.segment().name() + " is damaged at byte " + position
                + " (" + why + "); offsets " + nextOffset + ".." + last + " cannot be read", nextOffset, last);
    }

    /** Remembers where this cursor stands, for the next sequential read. */
    public void remember() {
        if (hints != null && scanner != null) {
            hints.remember(scanner.segment(), nextOffset, scanner.position());
        }
    }

    /** Offset of the current record. */
    public long offset() {
        return offset;
    }

    public byte[] array() {
        return scanner.array();
    }

    public int payloadOffset() {
        return scanner.payloadOffset();
    }

    public int payloadLength() {
        return scanner.payloadLength();
    }

    /** The segment of the current record. */
    public Segment segment() {
        return scanner.segment();
    }

    /** Byte position of the current record in its segment. */
    public long position() {
        return scanner.framePosition();
    }
}
