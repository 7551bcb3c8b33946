package io.kproxy.admin;

import io.kproxy.engine.DataplaneControl;
import io.kproxy.listen.AcceptLoop;
import io.kproxy.listen.Limits;
import io.kproxy.listen.Linger;
import io.kproxy.listen.LogValues;
import io.kproxy.listen.Slots;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's admin endpoint: a Unix domain socket serving {@link AdminRequest}s one per
 * connection (a line in, a line out), to root and the configured admin group only
 * (docs/operations.md, "Access").
 *
 * <ul>
 *   <li>The socket file is 0600 (0660 and the admin group's with {@code kproxy.adminGroup}) from
 *       the moment it can be connected to ({@link SocketFile}); its directory is created 0700
 *       (0710 and the group's) when missing, an existing one is left as it is (it may be shared,
 *       like {@code /run}) with a warning when others can enter it.</li>
 *   <li>Each connection's peer is checked against {@link AdminAccess} by the credentials the
 *       kernel reports ({@code SO_PEERCRED}); a refused peer gets a {@code forbidden} answer and a
 *       log line (at most ten per report period, then a count).</li>
 *   <li>The limits of {@link Limits#ADMIN} (or the ones given): the request line must arrive
 *       within the request timeout and fit the request size; connections are capped; a failing
 *       {@code accept} backs off ({@link AcceptLoop}).</li>
 *   <li>A socket file left by an agent that was killed is replaced; one that another agent is
 *       still serving is not (the start fails).</li>
 * </ul>
 *
 * <p>Each connection is served on its own virtual thread; pins and unpins are serialized by
 * {@link DataplaneControl} and block up to the sync timeout. {@link #close()} stops accepting,
 * closes the connections and removes the socket file.
 */
public final class AdminServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);
    /** Refusals logged one by one per report period; more are counted in the next line. */
    private static final int REFUSALS_LOGGED = 10;
    private static final Duration LINGER = Duration.ofMillis(500);

    private final Path path;
    private final AdminAccess access;
    private final DataplaneControl control;
    private final Duration syncTimeout;
    private final Limits limits;
    private final Slots slots;
    private AcceptLoop loop;
    private long refusalWindowStart = System.nanoTime();
    private int refusalsInWindow;
    private long refusalsSuppressed;
    private volatile boolean closed;

    private AdminServer(Path path, AdminAccess access, DataplaneControl control, Duration syncTimeout, Limits limits) {
        this.path = path;
        this.access = access;
        this.control = control;
        this.syncTimeout = syncTimeout;
        this.limits = limits;
        this.slots = new Slots("admin", limits);
    }

    /**
     * Binds {@code path} for root only, with {@link Limits#ADMIN}, and starts serving.
     *
     * @param syncTimeout how long a pin or unpin waits for the sync that programs it
     * @throws IOException when the socket cannot be bound (another agent serves it, a file that
     *                     is not a socket is in the way, no permission)
     */
    public static AdminServer start(Path path, DataplaneControl control, Duration syncTimeout) throws IOException {
        return start(path, AdminAccess.of(""), control, syncTimeout, Limits.ADMIN);
    }

    /**
     * Binds {@code path} for {@code access} with {@code limits} and starts serving.
     *
     * @throws IOException as {@link #start(Path, DataplaneControl, Duration)}
     */
    public static AdminServer start(Path path, AdminAccess access, DataplaneControl control, Duration syncTimeout, Limits limits)
            throws IOException {
        ServerSocketChannel ch = SocketFile.bind(path, access.admittedGroup(), 64);
        AdminServer s = new AdminServer(path, access, control, syncTimeout, limits);
        s.loop = AcceptLoop.start("admin", ch, s.slots, limits, s::serve);
        LOG.info("decision=admin-socket-listening path={} mode={} group={} maxConnections={} requestTimeout={}", path,
                access.admittedGroup().isPresent() ? "0660" : "0600", access.admittedGroup().map(g -> g.getName()).orElse("-"),
                limits.maxConnections(), limits.requestTimeout());
        return s;
    }

    public Path path() {
        return path;
    }

    private void serve(SocketChannel c, Slots.Slot slot) throws IOException {
        UnixDomainPrincipal peer = c.getOption(ExtendedSocketOptions.SO_PEERCRED);
        InputStream in = new BufferedInputStream(Channels.newInputStream(c), 1024);
        AdminResponse answer = switch (access.decide(peer)) {
            case AdminAccess.Refused r -> {
                refused(peer, r);
                yield AdminResponse.forbidden(r.why());
            }
            case AdminAccess.Admitted a -> {
                String line = readLine(in, limits.maxRequestBytes()); // within the request timeout the slot set
                slot.busy(syncTimeout.plus(limits.writeTimeout()));
                yield answer(line);
            }
        };
        ByteBuffer out = ByteBuffer.wrap((answer.encode() + "\n").getBytes(StandardCharsets.UTF_8));
        while (out.hasRemaining()) {
            c.write(out);
        }
        // A refused peer's request, or the rest of a line too long, is still unread.
        Linger.drain(c, in, slot, LINGER, limits.maxRequestBytes());
    }

    private synchronized void refused(UnixDomainPrincipal peer, AdminAccess.Refused r) {
        long now = System.nanoTime();
        if (now - refusalWindowStart >= limits.reportEvery().toNanos()) {
            refusalWindowStart = now;
            refusalsInWindow = 0;
        }
        if (refusalsInWindow++ < REFUSALS_LOGGED) {
            LOG.warn("decision=refuse-admin-peer user=\"{}\" group=\"{}\" suppressedBefore={} reason=\"{}\"", LogValues.escape(peer.user()
                    .getName()), LogValues.escape(peer.group().getName()), refusalsSuppressed, LogValues.escape(r.why()));
            refusalsSuppressed = 0;
        } else {
            refusalsSuppressed++;
        }
    }

    /** Decodes and serves one request line. */
    AdminResponse answer(String line) {
        if (line == null) {
            return AdminResponse.badRequest("request line longer than " + limits.maxRequestBytes() + " bytes, or empty");
        }
        AdminRequest r;
        try {
            r = AdminRequest.decode(line);
        } catch (AdminRequest.Malformed e) {
            LOG.warn("decision=refuse-admin-request reason=\"{}\"", LogValues.escape(e.getMessage()));
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
            LOG.info("decision=admin-request request=\"{}\" outcome={} code={} message=\"{}\"", LogValues.escape(AdminRequest.encode(r), 2 * 1024),
                    a.outcome(), a.code().isEmpty() ? "-" : a.code(), LogValues.escape(a.message()));
        }
        return a;
    }

    /** One line (without its newline), or null when it is empty or longer than {@code max} bytes. */
    private static String readLine(InputStream in, int max) throws IOException {
        byte[] buf = new byte[max];
        int n = 0;
        for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
            if (n == buf.length) {
                return null;
            }
            buf[n++] = (byte) b;
        }
        return n == 0 ? null : new String(buf, 0, n, StandardCharsets.UTF_8);
    }

    /** Stops accepting, closes the connections and removes the socket file. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        loop.close();
        slots.close();
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            LOG.warn("decision=continue reason=\"could not remove the admin socket\" path={} error=\"{}\"", path,
                    LogValues.escape(e.toString()));
        }
    }
}
