package io.kproxy.bench.journal;

import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.spi.EventLog.Draft;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/** Building benchmark journals: a pool of realistic drafts, bulk filling with snapshots, cleanup. */
final class BenchJournals {

    /** Distinct observations cycled through (generating a fresh one per record would dominate the setup). */
    static final int POOL = 4096;

    private BenchJournals() {
    }

    static List<Draft> pool(long seed) {
        EndpointSliceFixture f = new EndpointSliceFixture(seed);
        List<Draft> out = new ArrayList<>(POOL);
        for (int i = 0; i < POOL; i++) {
            out.add(new Draft("source/kube", f.observation(i % 600, i / 600)));
        }
        return out;
    }

    static Path tempDir(String name) {
        try {
            return Files.createTempDirectory("kproxy-bench-" + name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Appends {@code records} records in batches of 100, one clock second per batch, with up to 32
     * batches in flight, and a snapshot of {@code snapshotBytes} after every {@code snapshotEvery}
     * records ({@code 0}: none). Returns the journal, open.
     */
    static LocalJournal fill(Path dir, int records, int snapshotEvery, int snapshotBytes, SteppingClock clock) {
        LocalJournal j = LocalJournal.open(JournalOptions.defaults(dir).withFsyncWindow(Duration.ofMillis(2)).withClock(clock));
        List<Draft> pool = pool(42);
        byte[] snapshot = new byte[snapshotBytes];
        new java.util.Random(1).nextBytes(snapshot);
        ArrayDeque<CompletableFuture<List<Long>>> inFlight = new ArrayDeque<>();
        int batch = 100;
        for (int done = 0; done < records; done += batch) {
            List<Draft> drafts = new ArrayList<>(batch);
            for (int k = 0; k < batch; k++) {
                drafts.add(pool.get((done + k) % POOL));
            }
            clock.step(Duration.ofSeconds(1));
            inFlight.add(j.append(drafts));
            if (inFlight.size() >= 32) {
                inFlight.poll().join();
            }
            if (snapshotEvery > 0 && (done + batch) % snapshotEvery == 0) {
                inFlight.forEach(CompletableFuture::join);
                inFlight.clear();
                j.storeSnapshot(done + batch - 1L, snapshot);
            }
        }
        inFlight.forEach(CompletableFuture::join);
        return j;
    }

    static void delete(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A clock the builder moves forward by hand, so that history spans hours in seconds. */
    static final class SteppingClock extends Clock {
        private volatile Instant now;

        SteppingClock(Instant start) {
            this.now = start;
        }

        synchronized void step(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
