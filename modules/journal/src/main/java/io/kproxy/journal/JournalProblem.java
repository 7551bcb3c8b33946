package io.kproxy.journal;

/**
 * Something wrong found in a journal directory: by recovery when it opened, or by
 * {@link JournalInspector#verify()}. Immutable; never null components.
 *
 * @param kind        what is wrong
 * @param file        the file concerned (segment, index or snapshot name, relative to the directory)
 * @param firstOffset the first offset affected ({@code -1} when no record is)
 * @param lastOffset  the last offset affected ({@code -1} when no record is, or unknown)
 * @param position    byte position in {@code file} where the problem starts ({@code -1} when not about bytes)
 * @param detail      a sentence for an operator
 */
public record JournalProblem(Kind kind, String file, long firstOffset, long lastOffset, long position, String detail) {

    /** Kinds of problems, from benign to data loss. */
    public enum Kind {
        /**
         * The last segment ends in an incomplete frame with no sound frame after it: what a crash
         * during a write leaves. A read-write open cuts it (and saves the bytes under
         * {@code quarantine/}); a read-only open reports it and reads up to it.
         */
        TORN_TAIL,
        /**
         * A frame fails its length or checksum check and sound frames follow it (or it is in a
         * sealed segment): corruption, never cut. Its offsets up to the next segment are lost.
         */
        DAMAGED_RECORD,
        /** A frame is sound but its record cannot be decoded; the rest of its segment is not served. */
        UNDECODABLE_RECORD,
        /** A segment's header is damaged, of another format, or names another base offset: none of its records is served. */
        BAD_HEADER,
        /** Offsets are missing between two segments. */
        OFFSET_GAP,
        /** Two segments claim the same offsets. */
        OFFSET_OVERLAP,
        /** A record's time is before its predecessor's (the time index assumes it never is). */
        TIME_WENT_BACKWARDS,
        /** An index file is damaged or does not describe its segment; it was rebuilt from the segment. */
        INDEX_DAMAGED,
        /** A snapshot file fails its checksum or structure check; older snapshots are used instead. */
        SNAPSHOT_DAMAGED,
        /** A snapshot claims to cover offsets past the journal's end (never used; a read-write open moves it to {@code quarantine/}). */
        SNAPSHOT_BEYOND_END,
        /**
         * A snapshot lies inside a range of lost offsets (folded from records the journal no longer
         * has) or before the first record held: never used; a read-write open moves it to
         * {@code quarantine/}.
         */
        SNAPSHOT_UNUSABLE,
        /**
         * Records before the first segment are missing while a snapshot shows they existed (an
         * oldest segment deleted by hand): what no retention pass leaves.
         */
        MISSING_RECORDS,
        /**
         * The last segment file starts past a gap and holds no record (a file named far past the
         * end): not part of the journal; a read-write open moves it to {@code quarantine/}.
         */
        STRAY_SEGMENT,
        /** A journal file is not a regular file (a FIFO, directory, device or link) or cannot be read; it is never opened. */
        UNREADABLE_FILE,
        /** A range an earlier open found lost, remembered in {@code lost-ranges}; reported until the journal is replaced. */
        LOST_RANGE
    }

    public JournalProblem {
        if (kind == null || file == null || detail == null) {
            throw new IllegalArgumentException("kind, file and detail are required");
        }
    }

    @Override
    public String toString() {
        String range = firstOffset < 0 ? "" : " offsets " + firstOffset + ".." + (lastOffset < 0 ? "?" : Long.toString(lastOffset));
        String at = position < 0 ? "" : " at byte " + position;
        return kind + " " + file + at + range + ": " + detail;
    }
}
