package io.kproxy.journal.it;

import io.kproxy.events.Envelope;
import io.kproxy.journal.Fixtures;
import io.kproxy.journal.JournalInspector;
import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.spi.EventLogException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;

/**
 * Child JVM of {@link DiskFullIT}, run inside a private mount namespace on a tmpfs of a few
 * hundred KiB (the namespace and the tmpfs vanish with it). Fills the disk through the journal,
 * checks the error and that nothing is corrupted, frees space and appends again. Prints one line
 * per finding; the parent asserts on them.
 */
public final class FullDiskChild {

    private FullDiskChild() {
    }

    public static void main(String[] args) throws Exception {
        Path mount = Path.of(args[0]);
        Path filler = mount.resolve("filler");
        Files.write(filler, new byte[64 << 10]); // released later to show the journal resumes
        Path dir = mount.resolve("journal");
        JournalOptions opts = JournalOptions.defaults(dir).withSegmentBytes(64 << 10).withFsyncWindow(Duration.ofMillis(1));
        List<Long> acked = new ArrayList<>();
        try (LocalJournal j = LocalJournal.open(opts)) {
            EventLogException full = null;
            for (long i = 0; i < 20_000 && full == null; i++) {
                try {
                    acked.add(j.append("full", Fixtures.event(i)).join());
                } catch (CompletionException e) {
                    full = (EventLogException) e.getCause();
                }
            }
            if (full == null) {
                System.out.println("NEVER_FULL " + acked.size());
                return;
            }
            System.out.println("FULL kind=" + full.kind() + " retryable=" + full.retryable() + " after=" + acked.size() + " message=" + full.getMessage());
            try {
                j.append("full", Fixtures.event(acked.size())).join();
                System.out.println("SECOND_APPEND_SUCCEEDED");
            } catch (CompletionException e) {
                System.out.println("FULL_AGAIN kind=" + ((EventLogException) e.getCause()).kind());
            }
            try {
                j.storeSnapshot(acked.size() - 1, new byte[128 << 10]);
                System.out.println("SNAPSHOT_STORED");
            } catch (EventLogException e) {
                System.out.println("SNAPSHOT_FULL kind=" + e.kind());
            }
            try (Stream<Path> s = Files.list(dir.resolve("snapshots"))) {
                System.out.println("SNAPSHOT_FILES " + s.count());
            }
            System.out.println("READ " + j.read(0, Integer.MAX_VALUE).size());
        }
        try (LocalJournal j = LocalJournal.open(opts)) {
            System.out.println("REOPENED next=" + j.nextOffset() + " problems=" + j.openProblems().size());
            List<Envelope> all = j.read(0, Integer.MAX_VALUE);
            int bad = 0;
            for (int k = 0; k < acked.size(); k++) {
                if (k >= all.size() || all.get(k).offset() != acked.get(k) || !all.get(k).event().equals(Fixtures.event(k))) {
                    bad++;
                }
            }
            System.out.println("ACKED_INTACT " + (acked.size() - bad) + "/" + acked.size());
            System.out.println("VERIFY " + JournalInspector.of(j).verify());
            Files.delete(filler);
            long next = j.nextOffset();
            for (long i = next; i < next + 50; i++) {
                j.append("full", Fixtures.event(i)).join();
            }
            System.out.println("RESUMED next=" + j.nextOffset());
        }
        System.out.println("DONE");
    }
}
