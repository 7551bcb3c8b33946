package io.kproxy.app.admin;

import io.kproxy.engine.DataplaneControl;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's admin endpoint: a Unix domain socket that only the agent's user (root on a node)
 * can connect to, serving {@link AdminRequest}s one per connection (a line in, a line out).
 *
 * <ul>
 *   <li>The directory is created 0700 when missing (an existing one is left as it is, since it
 *       may be shared, like {@code /run}; a warning says when others can enter it); the socket
 *       is 0600. Connecting needs write permission on the socket, so other local users are
 *       refused by the kernel: no TCP port that any local user could reach.</li>
 *   <li>A socket file left by an agent that was killed is replaced; one that another agent is
 *       still serving is not (the start fails).</li>
 * </ul>
 *
 * <p>Each connection is served on its own virtual thread; pins and unpins are serialized by
 * {@link DataplaneControl} and block up to the sync timeout. {@link #close()} stops accepting
 * and removes the socket file.
 */
public final class AdminServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);
    private static final Set<PosixFilePermission> SOCKET_MODE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");

    private final Path path;
    private final ServerSocketChannel server;
    private final DataplaneControl control;
    private final Duration syncTimeout;
    private final Thread acceptor;
    private volatile boolean closed;

    private AdminServer(Path path, ServerSocketChannel server, DataplaneControl control, Duration syncTimeout) {
        this.path = path;
        this.server = server;
        this.control = control;
        this.syncTimeout = syncTimeout;
        this.acceptor = Thread.ofPlatform().name("kproxy-admin").daemon(true).unstarted(this::acceptLoop);
    }

    /**
     * Binds {@code path} and starts serving.
     *
     * @param syncTimeout how long a pin or unpin waits for the sync that programs it
     * @throws IOException when the socket cannot be bound (another agent serves it, a file that
     *                     is not a socket is in the way, no permission)
     */
    public static AdminServer start(Path path, DataplaneControl control, Duration syncTimeout) throws IOException {
        Path dir = path.toAbsolutePath().getParent();
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIR_MODE));
            Files.setPosixFilePermissions(dir, DIR_MODE); // createDirectories honours the umask
        } else if (!Files.getPosixFilePermissions(dir).stream().allMatch(p -> p.name().startsWith("OWNER"))) {
            LOG.warn("decision=continue reason=\"the admin socket's directory is open to others; the socket itself is 0600\" dir={}", dir);
        }
        removeStale(path);
        ServerSocketChannel ch = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            ch.bind(UnixDomainSocketAddress.of(path));
            Files.setPosixFilePermissions(path, SOCKET_MODE);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        AdminServer s = new AdminServer(path, ch, control, syncTimeout);
        s.acceptor.start();
        LOG.info("decision=admin-socket-listening path={} mode=0600", path);
        return s;
    }

    /** A socket file nobody serves (its agent was killed) is removed; anything else stays and fails the bind. */
    private static void removeStale(Path path) throws IOException {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!"socket".equals(fileType(path))) {
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

    private static String fileType(Path p) throws IOException {
        Object other = Files.readAttributes(p, "unix:mode", LinkOption.NOFOLLOW_LINKS).get("mode");
        int mode = other instanceof Integer i ? i : 0;
        return (mode & 0xF000) == 0xC000 ? "socket" : "other";
    }

    public Path path() {
        return path;
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                SocketChannel c = server.accept();
                Thread.ofVirtual().name("kproxy-admin-conn").start(() -> serve(c));
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("decision=continue reason=\"admin accept failed\" error=\"{}\"", e.toString());
                }
            }
        }
    }

    private void serve(SocketChannel c) {
        try (c; InputStream in = Channels.newInputStream(c); OutputStream out = Channels.newOutputStream(c)) {
            String line = readLine(in);
            AdminResponse answer = answer(line);
            out.write((answer.encode() + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            LOG.debug("decision=drop-admin-connection error=\"{}\"", e.toString());
        }
    }

    /** Decodes and serves one request line. */
    AdminResponse answer(String line) {
        if (line == null) {
            return AdminResponse.badRequest("request line longer than " + AdminRequest.MAX_LINE + " bytes, or empty");
        }
        AdminRequest r;
        try {
            r = AdminRequest.decode(line);
        } catch (AdminRequest.Malformed e) {
            LOG.warn("decision=refuse-admin-request reason=\"{}\"", e.getMessage().replace('"', '\''));
            return AdminResponse.badRequest(e.getMessage());
        }
        AdminResponse a = switch (r) {
            case AdminRequest.PinToTime p -> AdminResponse.of(control.pin(new DataplaneControl.To.Time(p.time()), p.reason(), syncTimeout));
            case AdminRequest.PinToOffset p -> AdminResponse.of(control.pin(new DataplaneControl.To.Offset(p.offset()), p.reason(),
                    syncTimeout));
            case AdminRequest.Unpin u -> AdminResponse.of(control.unpin(u.reason(), syncTimeout));
            case AdminRequest.Status s -> AdminResponse.of(control.status());
        };
        if (!(r instanceof AdminRequest.Status)) {
            LOG.info("decision=admin-request request={} outcome={} code={} message=\"{}\"", AdminRequest.encode(r).replace('"', '\''),
                    a.outcome(), a.code().isEmpty() ? "-" : a.code(), a.message().replace('"', '\''));
        }
        return a;
    }

    /** One line (without its newline), or null when it is empty or too long. */
    private static String readLine(InputStream in) throws IOException {
        byte[] buf = new byte[AdminRequest.MAX_LINE];
        int n = 0;
        for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
            if (n == buf.length) {
                return null;
            }
            buf[n++] = (byte) b;
        }
        return n == 0 ? null : new String(buf, 0, n, StandardCharsets.UTF_8);
    }

    /** Stops accepting and removes the socket file. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            LOG.debug("decision=continue reason=\"admin socket close failed\" error=\"{}\"", e.toString());
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            LOG.warn("decision=continue reason=\"could not remove the admin socket\" path={} error=\"{}\"", path, e.toString());
        }
        acceptor.interrupt();
    }
}
