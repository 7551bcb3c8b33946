package io.kproxy.bench.journal;

import io.kproxy.events.RawRecord;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.local.JournalReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a journal's records undecoded (frames and checksums checked), each payload copied out of
 * the reader's reusable buffer into a {@link RawRecord}: the first half of the batch read path a
 * parallel replay needs, which the journal does not offer yet (its {@code read} decodes on the
 * calling thread). Until it does, the benchmark reaches the journal's own reader, whose accessor
 * is package-private, by reflection; that works on the class path the benchmarks run on. Not
 * thread-safe.
 */
final class RawRecords {

    private final JournalReader reader;

    RawRecords(LocalJournal journal) {
        try {
            Method m = LocalJournal.class.getDeclaredMethod("reader");
            m.setAccessible(true);
            this.reader = (JournalReader) m.invoke(journal);
        } catch (NoSuchMethodException | IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("the journal's reader is not reachable: " + e, e);
        }
    }

    /** Appends the records {@code [from, to)} to {@code out}. */
    void read(long from, long to, List<RawRecord> out) {
        reader.scan(from, to, (offset, bytes, off, len) -> {
            out.add(new RawRecord(offset, Arrays.copyOfRange(bytes, off, off + len)));
            return true;
        });
    }
}
