package io.kproxy.journal.local;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/** Creating segment files. Stateless. */
final class Segments {

    private Segments() {
    }

    /**
     * Creates segment {@code base} in {@code dir}: header written, file and directory forced, so
     * the new name survives a crash. Returns the file open for writing. On failure nothing is left
     * behind (the file is removed) and the error says why; ENOSPC stays recognisable.
     */
    static FileChannel create(Path dir, long base) throws IOException {
        Path file = dir.resolve(SegmentFiles.segmentName(base));
        FileChannel ch = FileChannel.open(file, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), SegmentFiles.privateFile());
        try {
            SegmentFiles.writeFully(ch, SegmentFiles.header(base), 0);
            ch.force(true);
            SegmentFiles.fsyncDirectory(dir);
            return ch;
        } catch (IOException e) {
            try {
                ch.close();
                Files.deleteIfExists(file);
                SegmentFiles.fsyncDirectory(dir);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** Opens an existing segment for appending (positional writes). */
    static FileChannel openForWrite(Path file) throws IOException {
        return FileChannel.open(file, StandardOpenOption.WRITE);
    }
}
