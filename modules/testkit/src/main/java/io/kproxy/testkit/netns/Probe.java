package io.kproxy.testkit.netns;

import io.kproxy.netns.NetnsThread;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * Sends one TCP connection or UDP datagram from inside a namespace and reports the
 * {@link Outcome}. Every wait is bounded by {@code timeoutMillis}; a silent destination is
 * reported as dropped after it.
 */
public final class Probe {

    private final NetnsThread ns;
    private final int timeoutMillis;

    public Probe(NetnsThread ns, int timeoutMillis) {
        this.ns = ns;
        this.timeoutMillis = timeoutMillis;
    }

    /** A TCP connection to {@code dst:port}, from {@code source} when not null. */
    public Outcome tcp(String source, String dst, int port) {
        return ns.call(() -> {
            try (Socket s = new Socket()) {
                if (source != null) {
                    s.bind(new InetSocketAddress(InetAddress.getByName(source), 0));
                }
                s.setSoTimeout(timeoutMillis);
                s.connect(new InetSocketAddress(InetAddress.getByName(dst), port), timeoutMillis);
                InputStream in = s.getInputStream();
                return Outcome.reply(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (ConnectException e) {
                return Outcome.of(Outcome.Kind.REJECTED);
            } catch (NoRouteToHostException e) {
                return Outcome.of(Outcome.Kind.UNREACHABLE);
            } catch (SocketTimeoutException e) {
                return Outcome.of(Outcome.Kind.DROPPED);
            }
        });
    }

    /** A UDP datagram to {@code dst:port} from {@code source}:{@code sourcePort} (0 = any). */
    public Outcome udp(String source, int sourcePort, String dst, int port) {
        return ns.call(() -> {
            InetSocketAddress local = new InetSocketAddress(source == null ? InetAddress.getByName(dst.contains(":") ? "::" : "0.0.0.0")
                    : InetAddress.getByName(source), sourcePort);
            try (DatagramSocket s = new DatagramSocket(null)) {
                s.setReuseAddress(true);
                s.bind(local);
                s.setSoTimeout(timeoutMillis);
                s.connect(new InetSocketAddress(InetAddress.getByName(dst), port));
                byte[] hello = "hello".getBytes(StandardCharsets.UTF_8);
                s.send(new DatagramPacket(hello, hello.length));
                byte[] buf = new byte[1500];
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                s.receive(p);
                return Outcome.reply(new String(p.getData(), 0, p.getLength(), StandardCharsets.UTF_8));
            } catch (PortUnreachableException e) {
                return Outcome.of(Outcome.Kind.REJECTED);
            } catch (NoRouteToHostException e) {
                return Outcome.of(Outcome.Kind.UNREACHABLE);
            } catch (SocketTimeoutException e) {
                return Outcome.of(Outcome.Kind.DROPPED);
            } catch (IOException e) {
                if (String.valueOf(e.getMessage()).contains("refused")) {
                    return Outcome.of(Outcome.Kind.REJECTED);
                }
                throw e;
            }
        });
    }
}
