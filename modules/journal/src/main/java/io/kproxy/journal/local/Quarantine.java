package io.kproxy.journal.local;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * The {@code quarantine/} directory of a journal: bytes recovery cut (a torn tail), copies of
 * damaged bytes it kept in place, stray segments and unusable snapshots, set aside for an
 * operator and never read by the journal again. Names never collide (a suffix {@code -n} is
 * added). Stateless; blocks on I/O.
 */
final class Quarantine {

    private Quarantine() {
    }

    /** Copies {@code [from, size)} of {@code path} to a new file under {@code dir}/quarantine/, durably; returns its path. */
    static Path copy(Path dir, Path path, long from, long size, String suffix) throws IOException {
        Path q = dir.resolve(SegmentFiles.QUARANTINE);
        SegmentFiles.ensurePrivateDir(q);
        Path saved = unique(q, path.getFileName() + "." + from + suffix);
        try (FileChannel in = FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
             FileChannel out = FileChannel.open(saved, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                     SegmentFiles.privateFile())) {
            long done = 0;
            while (done < size - from) {
                done += in.transferTo(from + done, size - from - done, out);
            }
            out.force(true);
        }
        SegmentFiles.fsyncDirectory(q);
        return saved;
    }

    /** A name in {@code dir} that is not taken: {@code name}, else {@code name-1}, {@code name-2}, ... */
    static Path unique(Path dir, String name) {
        Path p = dir.resolve(name);
        for (int n = 1; Files.exists(p, LinkOption.NOFOLLOW_LINKS); n++) {
            p = dir.resolve(name + "-" + n);
        }
        return p;
    }
}
