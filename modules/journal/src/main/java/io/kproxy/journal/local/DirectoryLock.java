package io.kproxy.journal.local;

import io.kproxy.journal.spi.EventLogException;
import io.kproxy.journal.spi.EventLogException.Kind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One writer per journal directory: an exclusive lock on {@code journal.lock}, held for as long as
 * the journal is open. The lock is the kernel's (fcntl), so it disappears with the process, even
 * on SIGKILL: a stale lock file never blocks a restart. The holder writes its pid into the file so
 * the refusal can name it. Thread-safe.
 *
 * <p>fcntl locks belong to the process, and closing <em>any</em> descriptor of the file drops
 * them all. So a second open in the same JVM must not even open the lock file: directories locked
 * by this process are also kept in a JVM-wide set, checked first.
 */
public final class DirectoryLock implements AutoCloseable {

    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    private final Path key;
    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(Path key, FileChannel channel, FileLock lock) {
        this.key = key;
        this.channel = channel;
        this.lock = lock;
    }

    private static EventLogException locked(Path dir, String holder) {
        return new EventLogException(Kind.LOCKED, "journal directory " + dir + " is already open for writing by another writer"
                + holder + "; only one writer per directory is allowed (a read-only open needs no lock)");
    }

    /** Takes the lock of {@code dir}, or fails with {@link Kind#LOCKED} naming the holder. */
    public static DirectoryLock acquire(Path dir) {
        Path key;
        try {
            key = dir.toRealPath();
        } catch (IOException e) {
            throw new EventLogException(Kind.UNAVAILABLE, "cannot lock journal directory " + dir + ": " + e, e);
        }
        if (!HELD.add(key)) {
            throw locked(dir, " (this process, pid " + ProcessHandle.current().pid() + ")");
        }
        Path file = dir.resolve(SegmentFiles.LOCK_FILE);
        FileChannel ch = null;
        try {
            String bad = Files.exists(file, LinkOption.NOFOLLOW_LINKS) ? SegmentFiles.notRegular(file) : null;
            if (bad != null) {
                throw new IOException(SegmentFiles.LOCK_FILE + " " + bad + "; move it aside");
            }
            ch = FileChannel.open(file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS), SegmentFiles.privateFile());
            FileLock l = ch.tryLock();
            if (l == null) {
                String holder = holder(file);
                ch.close();
                HELD.remove(key);
                throw locked(dir, holder);
            }
            try {
                ch.truncate(0);
                byte[] pid = ("pid=" + ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
                SegmentFiles.writeFully(ch, ByteBuffer.wrap(pid), 0);
            } catch (IOException e) {
                // only the refusal message of a second writer uses the pid; a full disk must not stop the open
            }
            return new DirectoryLock(key, ch, l);
        } catch (IOException | OverlappingFileLockException e) {
            HELD.remove(key);
            if (ch != null) {
                try {
                    ch.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw new EventLogException(Kind.UNAVAILABLE, "cannot lock journal directory " + dir + ": " + e, e);
        }
    }

    private static String holder(Path file) {
        try {
            String s = Files.readString(file, StandardCharsets.US_ASCII).trim();
            return s.startsWith("pid=") && s.length() < 32 ? " (" + s.replace('=', ' ') + ")" : "";
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException ignored) {
            // closing the channel releases the lock in any case; the process exit would too
        } finally {
            HELD.remove(key);
        }
    }
}
