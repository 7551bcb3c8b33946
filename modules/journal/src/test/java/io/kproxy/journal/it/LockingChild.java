package io.kproxy.journal.it;

import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.spi.EventLogException;
import java.nio.file.Path;

/** Child JVM of {@link WriterLockIT}: tries to open a journal for writing, then read-only, and says what happened. */
public final class LockingChild {

    private LockingChild() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        try (LocalJournal j = LocalJournal.open(JournalOptions.defaults(dir))) {
            System.out.println("OPENED " + j.nextOffset());
        } catch (EventLogException e) {
            System.out.println(e.kind() + " " + e.getMessage());
        }
        try (LocalJournal ro = LocalJournal.openReadOnly(dir)) {
            System.out.println("READ " + ro.read(0, Integer.MAX_VALUE).size());
        }
    }
}
