package io.kproxy.journal.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * The journal's durable memory of the offsets it lost ({@code lost-ranges} in the directory), so
 * that damage is reported by every later open and verify even once the damaged file is gone (a
 * range is never given to new records, and its history is never whole again). A text file, one
 * range per line with its own CRC32C, replaced whole (temporary name, forced, renamed, directory
 * forced). Stateless.
 *
 * <p>Line: {@code <first> <last> <discoveredAt> <crc32c hex of the three numbers> <reason>}.
 */
final class LostRangeLedger {

    static final String FILE = "lost-ranges";
    private static final long MAX_BYTES = 1 << 20;

    /**
     * One lost range.
     *
     * @param first        first lost offset
     * @param last         last lost offset
     * @param discoveredAt the journal's next offset when a read-write open recorded the loss:
     *                     every record from there on was appended by an agent that knew it
     *                     ({@link Long#MAX_VALUE} while no read-write open has); for operators
     * @param reason       a sentence for an operator, on one line
     */
    record Entry(long first, long last, long discoveredAt, String reason) {
        Entry {
            if (first < 0 || last < first || discoveredAt <= last || reason == null) {
                throw new IllegalArgumentException("bad lost range " + first + ".." + last + " discovered at " + discoveredAt);
            }
            reason = reason.replaceAll("[\\p{Cntrl}]", " ");
        }

        boolean covers(long a, long b) {
            return first <= a && b <= last;
        }

        String line() {
            return first + " " + last + " " + discoveredAt + " " + crc(first, last, discoveredAt) + " " + reason;
        }
    }

    /** What the file holds, and the lines that could not be read (reported, never trusted). */
    record Loaded(List<Entry> entries, List<String> unreadable) {
    }

    private LostRangeLedger() {
    }

    static Loaded load(Path dir) {
        Path file = dir.resolve(FILE);
        byte[] all;
        try {
            all = SegmentFiles.readRegular(file, MAX_BYTES);
        } catch (NoSuchFileException e) {
            return new Loaded(List.of(), List.of());
        } catch (IOException e) {
            return new Loaded(List.of(), List.of(e.getMessage()));
        }
        List<Entry> entries = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        int n = 0;
        for (String line : new String(all, StandardCharsets.UTF_8).split("\n")) {
            n++;
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(" ", 5);
            try {
                long first = Long.parseLong(f[0]);
                long last = Long.parseLong(f[1]);
                long at = Long.parseLong(f[2]);
                if (f.length < 5 || !f[3].equals(crc(first, last, at))) {
                    throw new IllegalArgumentException("checksum mismatch");
                }
                entries.add(new Entry(first, last, at, f[4]));
            } catch (RuntimeException e) {
                bad.add("line " + n + " of " + FILE + " cannot be read (" + e.getMessage() + ")");
            }
        }
        return new Loaded(List.copyOf(entries), List.copyOf(bad));
    }

    /** Replaces the file with {@code entries}, durably. */
    static void store(Path dir, List<Entry> entries) throws IOException {
        StringBuilder b = new StringBuilder();
        entries.forEach(e -> b.append(e.line()).append('\n'));
        Path tmp = dir.resolve(FILE + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE), SegmentFiles.privateFile())) {
            SegmentFiles.writeFully(ch, ByteBuffer.wrap(b.toString().getBytes(StandardCharsets.UTF_8)), 0);
            ch.force(true);
        }
        Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        SegmentFiles.fsyncDirectory(dir);
    }

    private static String crc(long first, long last, long at) {
        CRC32C c = new CRC32C();
        c.update((first + " " + last + " " + at).getBytes(StandardCharsets.US_ASCII));
        return String.format(Locale.ROOT, "%08x", c.getValue());
    }
}
