package io.kproxy.app;

import io.kproxy.events.ClusterEvent;
import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.testkit.SettableClock;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * A journal written with the real journal and codec, then forged the way an attacker with write
 * access to the directory would: every placeholder resourceVersion (an ordinary token of the same
 * UTF-8 length) is replaced by its hostile value, and each frame's CRC-32C is made right again
 * ({@code [length u32][crc32c u32][payload]} after the 20-byte segment header: modules/journal, RecordFrame and SegmentFiles).
 * So the records carry values no event constructor would accept, exactly as a journal from
 * elsewhere could. Not thread-safe.
 */
final class ForgedJournal {

    private static final int SEGMENT_HEADER = 20;
    /** When the first event is recorded; every other one is recorded at {@link #REST}. */
    static final Instant FIRST = Instant.parse("2026-01-01T00:00:00Z");
    static final Instant REST = Instant.parse("2026-01-01T00:01:00Z");

    private final Map<String, String> forgeries = new LinkedHashMap<>();
    private final List<ClusterEvent> events = new ArrayList<>();

    /** A placeholder for {@code hostile}, to construct events with; replaced in the bytes by {@link #write}. */
    String placeholder(String hostile) {
        int len = hostile.getBytes(StandardCharsets.UTF_8).length;
        String tag = "9" + forgeries.size() + "q";
        String p = tag + "7".repeat(len - tag.length());
        forgeries.put(p, hostile);
        return p;
    }

    void add(ClusterEvent e) {
        events.add(e);
    }

    /** How many events were added: the offset the next one gets. */
    int size() {
        return events.size();
    }

    /**
     * Appends the events to a new journal in {@code dir} (the first at {@link #FIRST}, the others
     * at {@link #REST}), closes it, and forges the placeholders.
     */
    void write(Path dir) throws IOException {
        SettableClock clock = new SettableClock(FIRST);
        try (LocalJournal j = LocalJournal.open(JournalOptions.defaults(dir).withClock(clock))) {
            List<EventLog.Draft> drafts = events.stream().map(e -> new EventLog.Draft("source/kube", e)).toList();
            j.append(drafts.subList(0, 1)).join();
            clock.set(REST);
            j.append(drafts.subList(1, drafts.size())).join();
        }
        if (forgeries.isEmpty()) {
            return;
        }
        List<Path> segments;
        try (Stream<Path> s = Files.list(dir)) {
            segments = s.filter(p -> p.getFileName().toString().endsWith(".seg")).toList();
        }
        for (Path seg : segments) {
            byte[] b = Files.readAllBytes(seg);
            forgeries.forEach((from, to) -> replaceAll(b, from.getBytes(StandardCharsets.UTF_8), to.getBytes(StandardCharsets.UTF_8)));
            ByteBuffer buf = ByteBuffer.wrap(b);
            for (int i = SEGMENT_HEADER; i + 8 <= b.length; ) {
                int len = buf.getInt(i);
                if (len <= 0 || i + 8 + len > b.length) {
                    break;
                }
                CRC32C crc = new CRC32C();
                crc.update(buf.slice(i, 4));
                crc.update(b, i + 8, len);
                buf.putInt(i + 4, (int) crc.getValue());
                i += 8 + len;
            }
            Files.write(seg, b);
        }
    }

    private static void replaceAll(byte[] b, byte[] from, byte[] to) {
        outer:
        for (int i = 0; i + from.length <= b.length; i++) {
            for (int k = 0; k < from.length; k++) {
                if (b[i + k] != from[k]) {
                    continue outer;
                }
            }
            System.arraycopy(to, 0, b, i, to.length);
        }
    }
}
