package io.kproxy.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * Everything the demo set up, undone in reverse order exactly once: on success, on failure and
 * from the Ctrl-C hook (whichever comes first). Thread-safe.
 */
final class Cleanup implements AutoCloseable {

    private final Deque<AutoCloseable> stack = new ArrayDeque<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    /** Takes {@code c} to close later; closes it at once when cleanup already ran. */
    synchronized <T extends AutoCloseable> T add(T c) {
        if (closed.get()) {
            closeQuietly(c);
            throw new IllegalStateException("the demo is stopping");
        }
        stack.push(c);
        return c;
    }

    /** A directory removed with everything in it. */
    Path directory(Path dir) {
        add(() -> delete(dir));
        return dir;
    }

    static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Whether cleanup ran (or runs). */
    boolean closed() {
        return closed.get();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        while (true) {
            AutoCloseable c;
            synchronized (this) {
                c = stack.poll();
            }
            if (c == null) {
                return;
            }
            closeQuietly(c);
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            System.err.println("kproxy demo: cleanup: " + e.getMessage());
        }
    }
}
