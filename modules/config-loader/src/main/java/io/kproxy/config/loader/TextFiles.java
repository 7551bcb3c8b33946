package io.kproxy.config.loader;

import io.kproxy.config.ConfigException;
import io.kproxy.config.FieldError;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;

/**
 * Reading an input file (a configuration, an objects file, a kubeconfig) safely: only a regular
 * file, at most a given number of bytes, strict UTF-8. A FIFO would block the read (opening one
 * for reading waits for a writer), {@code /dev/zero} never ends, a directory or a socket cannot be
 * read, so the file's type is checked before it is opened. Symbolic links are followed (kubeadm
 * and kubelet mount ConfigMaps as links into a {@code ..data} directory) but what they point at
 * must be a regular file. The read stops one byte past the limit, so an oversized file (or one
 * that grows, or a {@code /proc} file that reports size 0) costs at most the limit.
 *
 * <p>Stateless and thread-safe; blocks on file I/O.
 */
public final class TextFiles {

    private TextFiles() {
    }

    /**
     * The text of {@code file}.
     *
     * @param maxBytes the largest file accepted
     * @throws ConfigException (from {@code file}) when the file is missing, not a regular file,
     *                         larger than {@code maxBytes}, unreadable or not UTF-8
     */
    public static String read(Path file, int maxBytes) {
        requireRegularFile(file, maxBytes);
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(maxBytes + 1);
        } catch (IOException e) {
            throw refused(file, "cannot read the file: " + e.getMessage());
        }
        if (bytes.length > maxBytes) {
            // It grew since, or it does not report its size (a /proc file).
            throw refused(file, "the file is larger than the limit of " + maxBytes + " bytes");
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw refused(file, "not UTF-8 text");
        }
    }

    /**
     * Refuses anything but an existing regular file (after following links) of at most
     * {@code maxBytes}, without opening it: for files another component reads later (the API
     * client reads the kubeconfig).
     *
     * @throws ConfigException (from {@code file}) naming what is wrong
     */
    public static void requireRegularFile(Path file, int maxBytes) {
        long size = requireRegularFile(file);
        if (size > maxBytes) {
            throw refused(file, "the file is " + size + " bytes, larger than the limit of " + maxBytes + " bytes");
        }
    }

    private static long requireRegularFile(Path file) {
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            throw refused(file, "cannot read the file: no such file");
        } catch (IOException e) {
            throw refused(file, "cannot read the file: " + e.getMessage());
        }
        if (!attrs.isRegularFile()) {
            throw refused(file, "not a regular file (" + kind(file, attrs) + "); kproxy reads only regular files");
        }
        return attrs.size();
    }

    /** What the file is, from its {@code st_mode} (Linux {@code S_IFMT} values). */
    private static String kind(Path file, BasicFileAttributes attrs) {
        if (attrs.isDirectory()) {
            return "a directory";
        }
        try {
            int mode = (Integer) Files.getAttribute(file, "unix:mode");
            return switch (mode & 0170000) {
                case 0010000 -> "a FIFO";
                case 0020000 -> "a character device";
                case 0060000 -> "a block device";
                case 0140000 -> "a socket";
                default -> "a special file";
            };
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "a special file";
        }
    }

    private static ConfigException refused(Path file, String reason) {
        return new ConfigException(List.of(new FieldError("", "", reason))).from(file.toString());
    }
}
