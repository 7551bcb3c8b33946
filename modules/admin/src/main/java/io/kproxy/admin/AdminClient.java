package io.kproxy.admin;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The CLI side of the admin endpoint: connects to the agent's socket, sends one
 * {@link AdminRequest} and reads one {@link AdminResponse}. Problems before an answer are
 * {@link Unreachable} with a message an operator can act on. Blocks until the agent answered
 * (pins wait for their sync); not thread-safe, one request per call.
 */
public final class AdminClient {

    /** Why no answer came back. */
    public static final class Unreachable extends Exception {
        private static final long serialVersionUID = 1L;

        /** The kind of problem, which decides the command's exit code. */
        public enum Kind {
            NO_AGENT,
            PERMISSION_DENIED,
            PROTOCOL
        }

        private final Kind kind;

        Unreachable(Kind kind, String message) {
            super(message);
            this.kind = kind;
        }

        public Kind kind() {
            return kind;
        }
    }

    private final Path socket;

    public AdminClient(Path socket) {
        this.socket = socket;
    }

    /** Sends {@code request} and returns the agent's answer. */
    public AdminResponse send(AdminRequest request) throws Unreachable {
        Path dir = socket.toAbsolutePath().getParent();
        if (dir != null && Files.isDirectory(dir) && !Files.isExecutable(dir)) {
            throw denied(); // a 0700 directory of another user: we cannot even see whether the socket is there
        }
        if (!Files.exists(socket)) {
            throw new Unreachable(Unreachable.Kind.NO_AGENT, "no agent is listening on " + socket + " (no such socket; is kproxy run "
                    + "running on this node, with this --admin-socket?)");
        }
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            OutputStream out = Channels.newOutputStream(ch);
            out.write((AdminRequest.encode(request) + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            ch.shutdownOutput();
            InputStream in = Channels.newInputStream(ch);
            String line = new String(in.readNBytes(1 << 20), StandardCharsets.UTF_8).strip();
            AdminResponse r = AdminResponse.decode(line).orElseThrow(() -> new Unreachable(Unreachable.Kind.PROTOCOL,
                    line.isEmpty() ? "the agent on " + socket + " closed the connection without an answer"
                            : "the agent on " + socket + " answered something this version cannot read: " + abbreviate(line)));
            if (r.outcome().equals("forbidden")) {
                throw new Unreachable(Unreachable.Kind.PERMISSION_DENIED, "permission denied on " + socket + ": " + r.message());
            }
            return r;
        } catch (AccessDeniedException e) {
            throw denied();
        } catch (NoSuchFileException e) {
            throw new Unreachable(Unreachable.Kind.NO_AGENT, "no agent is listening on " + socket + " (the socket went away)");
        } catch (ConnectException e) {
            throw new Unreachable(Unreachable.Kind.NO_AGENT, "no agent is listening on " + socket + " (connection refused: the agent "
                    + "that made it is not running)");
        } catch (SocketException e) {
            if (String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("permission denied")) {
                throw denied();
            }
            throw new Unreachable(Unreachable.Kind.NO_AGENT, "cannot talk to the agent on " + socket + ": " + e.getMessage());
        } catch (IOException e) {
            throw new Unreachable(Unreachable.Kind.NO_AGENT, "cannot talk to the agent on " + socket + ": " + e.getMessage());
        }
    }

    private Unreachable denied() {
        return new Unreachable(Unreachable.Kind.PERMISSION_DENIED, "permission denied on " + socket
                + ": only root (the agent's user) or its kproxy.adminGroup may use the admin socket; run this command as root");
    }

    private static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
}
