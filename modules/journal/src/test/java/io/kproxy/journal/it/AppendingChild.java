package io.kproxy.journal.it;

import io.kproxy.journal.Fixtures;
import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.LocalJournal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Child JVM of {@link CrashIT}: appends the deterministic fixture events (the record at offset
 * {@code o} is {@code Fixtures.event(o)}) with many appends in flight, and prints
 * {@code ACK <offset>} once each is acknowledged (durable), until it is killed. Bounded: stops
 * by itself after 60 s or 2,000,000 records.
 */
public final class AppendingChild {

    private AppendingChild() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        LocalJournal j = LocalJournal.open(JournalOptions.defaults(dir).withSegmentBytes(256 << 10).withFsyncWindow(Duration.ofMillis(1)));
        long start = j.nextOffset();
        System.out.println("START " + start);
        System.out.flush();
        Semaphore inFlight = new Semaphore(256);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (long i = start; i < start + 2_000_000 && System.nanoTime() < deadline; i++) {
            inFlight.acquire();
            long expected = i;
            j.append("child", Fixtures.event(i)).whenComplete((offset, error) -> {
                inFlight.release();
                if (error != null) {
                    System.out.println("ERROR " + expected + " " + error);
                } else if (offset != expected) {
                    System.out.println("MISORDERED " + expected + " " + offset);
                } else {
                    System.out.println("ACK " + offset);
                }
            });
        }
        j.close();
        System.out.println("END");
    }
}
