package io.kproxy.journal.local;

import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * Makes written bytes durable. The journal uses {@link #DATA} ({@code fdatasync}: data and the
 * file size, which is all a reader after a crash needs); tests substitute one that blocks or
 * fails, to prove that no append is acknowledged before its fsync returned.
 */
@FunctionalInterface
public interface FileSync {

    FileSync DATA = ch -> ch.force(false);

    void force(FileChannel channel) throws IOException;
}
