package io.kproxy.bench.journal;

import io.kproxy.events.RawRecord;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.local.JournalReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;

/**
 * Reads a journal's records undecoded (frames and checksums checked), each payload copied out of
 * the reader's reusable buffer into one arena per batch, which the next batch reuses (decoded
 * envelopes never point into the bytes): the first half of the batch read path a parallel
 * replay needs, which the journal does not offer yet (its {@code read} decodes on the
 * calling thread). Until it does, the benchmark reaches the journal's own reader, whose accessor
 * is package-private, by reflection; that works on the class path the benchmarks run on. Not
 * thread-safe.
 */
final class RawRecords {

    private final JournalReader reader;
    private byte[] arena = new byte[1 << 20];
    private int used;

    RawRecords(LocalJournal journal) {
        try {
            Method m = LocalJournal.class.getDeclaredMethod("reader");
            m.setAccessible(true);
            this.reader = (JournalReader) m.invoke(journal);
        } catch (NoSuchMethodException | IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("the journal's reader is not reachable: " + e, e);
        }
    }

    /**
     * Appends the records {@code [from, to)} to {@code out}. Their bytes stay valid until the next
     * call: decode them before reading the next batch.
     */
    void read(long from, long to, List<RawRecord> out) {
        used = 0;
        reader.scan(from, to, (offset, bytes, off, len) -> {
            if (arena.length - used < len) {
                arena = new byte[Math.max(arena.length * 2, len)]; // records already read keep the old one
                used = 0;
            }
            System.arraycopy(bytes, off, arena, used, len);
            out.add(new RawRecord(offset, arena, used, len));
            used += len;
            return true;
        });
    }
}
