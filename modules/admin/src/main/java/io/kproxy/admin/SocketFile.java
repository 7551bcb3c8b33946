package io.kproxy.admin;

import java.io.IOException;
import java.net.ConnectException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin socket's file, which has its final mode before anyone can connect to it.
 *
 * <p>{@code bind(2)} creates a socket file with the process's umask (0755 under the usual 022,
 * 0777 under 0), and Java can neither set the umask nor bind with a mode, so binding at the final
 * path and then {@code chmod}ding leaves a window in which the file is connectable with the umask's
 * mode. Instead the socket is bound in a fresh private directory (0700, a random name next to
 * the final path, so on the same file system), given its mode and group there, and then published
 * with {@code link(2)} ({@link Files#createLink}), which makes the final name appear atomically,
 * with the inode's mode already set, and never replaces an existing file (a concurrent agent, or
 * anything placed there since the stale check). The private name and directory are then removed.
 *
 * <p>Stateless; not for concurrent starts on the same path (the second fails cleanly).
 */
final class SocketFile {

    private static final Logger LOG = LoggerFactory.getLogger(SocketFile.class);
    private static final Set<PosixFilePermission> PRIVATE_DIR = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> GROUP_DIR = PosixFilePermissions.fromString("rwx--x---");
    static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    static final Set<PosixFilePermission> OWNER_AND_GROUP = PosixFilePermissions.fromString("rw-rw----");
    /** {@code sizeof(sockaddr_un.sun_path) - 1} on Linux. */
    private static final int MAX_PATH = 107;
    private static final SecureRandom RANDOM = new SecureRandom();

    private SocketFile() {
    }

    /**
     * Creates the directory when missing (0700; 0710 and the group's with {@code group}, so its
     * members can reach the socket), removes a stale socket file, and binds {@code path} with mode
     * 0600 (0660 and group {@code group}).
     *
     * @throws IOException when another agent serves {@code path}, a file that is not a socket is
     *                     in the way, or binding fails
     */
    static ServerSocketChannel bind(Path path, Optional<GroupPrincipal> group, int backlog) throws IOException {
        Path dir = path.toAbsolutePath().getParent();
        directory(dir, group);
        removeStale(path);
        Path privateDir = privateDirectory(dir);
        Path temporary = privateDir.resolve("s");
        try {
            if (temporary.toString().getBytes(StandardCharsets.UTF_8).length > MAX_PATH) {
                throw new IOException("cannot bind the admin socket in a private directory next to " + path + ": " + temporary
                        + " is longer than " + MAX_PATH + " bytes (choose a shorter directory)");
            }
            ServerSocketChannel ch = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            try {
                ch.bind(UnixDomainSocketAddress.of(temporary), backlog);
                if (group.isPresent()) {
                    Files.getFileAttributeView(temporary, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).setGroup(group.get());
                }
                Files.setPosixFilePermissions(temporary, group.isPresent() ? OWNER_AND_GROUP : OWNER_ONLY);
                Files.createLink(path, temporary);
                return ch;
            } catch (FileAlreadyExistsException e) {
                ch.close();
                throw new IOException(path + " appeared while the admin socket was being bound (another agent?); not replacing it", e);
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
        } finally {
            Files.deleteIfExists(temporary);
            Files.deleteIfExists(privateDir);
        }
    }

    private static void directory(Path dir, Optional<GroupPrincipal> group) throws IOException {
        if (!Files.isDirectory(dir)) {
            Set<PosixFilePermission> mode = group.isPresent() ? GROUP_DIR : PRIVATE_DIR;
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(mode));
            if (group.isPresent()) {
                Files.getFileAttributeView(dir, PosixFileAttributeView.class).setGroup(group.get());
            }
            Files.setPosixFilePermissions(dir, mode); // createDirectories honours the umask
            return;
        }
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(dir);
        if (mode.contains(PosixFilePermission.OTHERS_EXECUTE)) {
            LOG.warn("decision=continue reason=\"the admin socket's directory is open to others; the socket itself is not\" dir={}", dir);
        }
        if (group.isPresent() && !mode.contains(PosixFilePermission.OTHERS_EXECUTE) && !(mode.contains(PosixFilePermission.GROUP_EXECUTE)
                && group.get().equals(Files.getFileAttributeView(dir, PosixFileAttributeView.class).readAttributes().group()))) {
            LOG.warn("decision=continue reason=\"members of kproxy.adminGroup cannot enter the admin socket's directory\" dir={} group={}",
                    dir, group.get().getName());
        }
    }

    private static Path privateDirectory(Path dir) throws IOException {
        for (int attempt = 0; ; attempt++) {
            Path p = dir.resolve(".kp" + Long.toString(RANDOM.nextLong(36L * 36 * 36 * 36 * 36 * 36), 36));
            try {
                Files.createDirectory(p, PosixFilePermissions.asFileAttribute(PRIVATE_DIR));
                Files.setPosixFilePermissions(p, PRIVATE_DIR);
                return p;
            } catch (FileAlreadyExistsException e) {
                if (attempt == 10) {
                    throw e;
                }
            }
        }
    }

    /** A socket file nobody serves (its agent was killed) is removed; anything else stays and fails the start. */
    private static void removeStale(Path path) throws IOException {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Object mode = Files.readAttributes(path, "unix:mode", LinkOption.NOFOLLOW_LINKS).get("mode");
        if (!(mode instanceof Integer m) || (m & 0xF000) != 0xC000) {
            throw new IOException(path + " exists and is not a socket; refusing to replace it");
        }
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            probe.connect(UnixDomainSocketAddress.of(path));
            throw new IOException("another agent is serving " + path);
        } catch (ConnectException e) {
            Files.delete(path);
            LOG.info("decision=removed-stale-admin-socket path={}", path);
        }
    }
}
