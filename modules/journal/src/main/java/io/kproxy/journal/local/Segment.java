package io.kproxy.journal.local;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One segment file: its base offset, its sparse index, and a read channel shared by every
 * reader. Reads are positional ({@code pread}), so any number of threads read at once while the
 * writer appends through its own channel.
 *
 * <p>A {@link FileChannel} is closed for everyone when a thread blocked in it is interrupted
 * (Reactor interrupts workers on cancel). The read channel is therefore reopened when that
 * happens: the interrupted reader gets an {@link InterruptedIOException}, the others retry.
 * Thread-safe; {@link #read} blocks on I/O.
 */
public final class Segment {

    private final long base;
    private final Path path;
    private final SparseIndex index;
    private final Object reopenLock = new Object();
    private volatile FileChannel channel;
    private volatile boolean closed;

    Segment(long base, Path path, SparseIndex index) {
        this.base = base;
        this.path = path;
        this.index = index;
    }

    public long base() {
        return base;
    }

    public Path path() {
        return path;
    }

    public String name() {
        return path.getFileName().toString();
    }

    SparseIndex index() {
        return index;
    }

    /** Reads into {@code dst} from {@code position}; -1 at end of file. */
    int read(ByteBuffer dst, long position) throws IOException {
        for (int attempt = 0; ; attempt++) {
            FileChannel ch = channel();
            try {
                return ch.read(dst, position);
            } catch (ClosedByInterruptException e) {
                reopen(ch);
                throw new InterruptedIOException("read of " + name() + " interrupted");
            } catch (ClosedChannelException e) {
                if (closed || attempt >= 3) {
                    throw e;
                }
                reopen(ch);
            }
        }
    }

    private FileChannel channel() throws IOException {
        FileChannel ch = channel;
        if (ch != null && ch.isOpen()) {
            return ch;
        }
        return reopen(ch);
    }

    private FileChannel reopen(FileChannel seen) throws IOException {
        synchronized (reopenLock) {
            if (closed) {
                throw new ClosedChannelException();
            }
            if (channel != seen && channel != null && channel.isOpen()) {
                return channel;
            }
            String bad = SegmentFiles.notRegular(path);
            if (bad != null) {
                throw new IOException("segment " + name() + " " + bad);
            }
            channel = FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
            return channel;
        }
    }

    /** Closes the read channel; later reads fail. Idempotent. */
    void close() {
        synchronized (reopenLock) {
            closed = true;
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // nothing was written through it; closing a read channel cannot lose data
                }
            }
        }
    }

    @Override
    public String toString() {
        return name();
    }
}
