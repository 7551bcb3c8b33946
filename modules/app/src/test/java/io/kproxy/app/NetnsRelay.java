package io.kproxy.app;

import io.kproxy.netns.NetnsThread;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Test-only: a user-space TCP relay from a port inside a network namespace to an address in the
 * test's own namespace, so that a process inside a test namespace reaches the mock API server
 * the test JVM runs on the host's loopback, without any interface or route being added to the
 * host. The listening socket is created by a thread that entered the namespace (a socket lives
 * in the namespace of the thread that created it); connections to the target are made from
 * ordinary threads. {@link #pause()} closes the listener and every relayed connection (the API
 * server is gone: connections reset, new ones refused); {@link #resume()} listens again.
 */
final class NetnsRelay implements AutoCloseable {

    private final NetnsThread ns;
    private final int port;
    private final InetSocketAddress target;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile ServerSocket listener;

    private NetnsRelay(NetnsThread ns, int port, InetSocketAddress target) {
        this.ns = ns;
        this.port = port;
        this.target = target;
    }

    static NetnsRelay start(NetnsThread ns, int port, InetSocketAddress target) {
        NetnsRelay r = new NetnsRelay(ns, port, target);
        r.resume();
        return r;
    }

    synchronized void resume() {
        listener = ns.call(() -> {
            ServerSocket ss = new ServerSocket();
            ss.setReuseAddress(true);
            ss.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
            return ss;
        });
        ServerSocket ss = listener;
        Thread.ofPlatform().daemon().name("relay-accept-" + port).start(() -> accept(ss));
    }

    synchronized void pause() {
        closeQuietly(listener);
        open.forEach(NetnsRelay::closeQuietly);
        open.clear();
    }

    private void accept(ServerSocket ss) {
        while (!ss.isClosed()) {
            try {
                Socket in = ss.accept();
                Socket out = new Socket();
                try {
                    out.connect(target, 2_000);
                } catch (IOException e) {
                    closeQuietly(in);
                    closeQuietly(out);
                    continue;
                }
                open.add(in);
                open.add(out);
                pump(in, out);
                pump(out, in);
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread.ofPlatform().daemon().name("relay-pump").start(() -> {
            try (InputStream i = from.getInputStream(); OutputStream o = to.getOutputStream()) {
                i.transferTo(o);
            } catch (IOException e) {
                // closed by the other side or by pause()
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        });
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            if (c != null) {
                c.close();
            }
        } catch (Exception e) {
            // nothing to do
        }
    }

    @Override
    public void close() {
        pause();
    }
}
