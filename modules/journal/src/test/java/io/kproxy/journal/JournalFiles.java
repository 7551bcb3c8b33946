package io.kproxy.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Test helpers that damage journal files the way disks and crashes do, and look at them from outside. */
public final class JournalFiles {

    static final int SEGMENT_HEADER = 20;

    private JournalFiles() {
    }

    /** Segment files in offset order. */
    public static List<Path> segments(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".seg")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static long base(Path segment) {
        return Long.parseLong(segment.getFileName().toString().substring(0, 20));
    }

    /** {start, end} of every frame of an undamaged segment, read from the length fields alone. */
    public static List<long[]> frames(Path segment) {
        try {
            byte[] b = Files.readAllBytes(segment);
            ByteBuffer bb = ByteBuffer.wrap(b);
            List<long[]> out = new ArrayList<>();
            int p = SEGMENT_HEADER;
            while (p + 8 <= b.length) {
                int len = bb.getInt(p);
                out.add(new long[] {p, p + 8L + len});
                p += 8 + len;
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void flipBit(Path file, long position, int bit) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            ch.read(one, position);
            one.put(0, (byte) (one.get(0) ^ (1 << bit))).rewind();
            ch.write(one, position);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void truncate(Path file, long size) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(size);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void appendZeros(Path file, int n) {
        try {
            Files.write(file, new byte[n], StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void copyDir(Path from, Path to) {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SHA-256 of every file under {@code dir}, by relative path: to prove nothing was modified. */
    public static Map<String, String> digest(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            Map<String, String> out = new TreeMap<>();
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                MessageDigest md = MessageDigest.getInstance("SHA-256");
                out.put(dir.relativize(p).toString(), HexFormat.of().formatHex(md.digest(Files.readAllBytes(p))));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
