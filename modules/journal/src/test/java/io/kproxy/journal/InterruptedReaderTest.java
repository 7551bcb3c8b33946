package io.kproxy.journal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.Envelope;
import io.kproxy.journal.spi.EventLogException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interrupting a thread blocked in a FileChannel closes the channel for every thread (Reactor
 * interrupts workers on cancel). The journal must reopen it: the interrupted reader gets an
 * error, every other reader goes on undisturbed.
 */
class InterruptedReaderTest {

    @TempDir
    Path tmp;

    @Test
    void interruptingOneReaderDoesNotBreakTheOthers() throws Exception {
        try (LocalJournal j = LocalJournal.open(JournalOptions.defaults(tmp.resolve("j")).withSegmentBytes(64 << 10)
                .withFsyncWindow(Duration.ZERO))) {
            j.append(Fixtures.drafts(0, 2000)).join();
            List<Envelope> all = j.read(0, Integer.MAX_VALUE);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger interruptedReads = new AtomicInteger();
            Thread victim = Thread.ofPlatform().start(() -> {
                while (!stop.get()) {
                    try {
                        j.read(0, Integer.MAX_VALUE);
                    } catch (EventLogException e) {
                        interruptedReads.incrementAndGet();
                    }
                    Thread.interrupted(); // clear, and read again
                }
            });
            Random rnd = new Random(5);
            for (int k = 0; k < 100; k++) {
                victim.interrupt();
                int from = rnd.nextInt(all.size());
                assertThat(j.read(from, 300)).isEqualTo(all.subList(from, Math.min(all.size(), from + 300)));
            }
            stop.set(true);
            victim.interrupt();
            victim.join(10_000);
            assertThat(j.read(0, Integer.MAX_VALUE)).isEqualTo(all);
            System.out.println("reads ended by an interrupt: " + interruptedReads.get());
        }
    }
}
