package io.kproxy.testkit.netns;

import io.kproxy.model.IpAddress;
import io.kproxy.netns.NetnsThread;
import java.io.IOException;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * TCP and UDP servers inside one pod namespace that answer every connection or datagram with
 * {@code <name> <source-ip>}: who answered, and which source address it saw (so a test can tell
 * whether the packet was masqueraded). Listens on the dual-stack wildcard. Closing stops them.
 */
public final class EchoServer implements AutoCloseable {

    private final String name;
    private final List<AutoCloseable> sockets = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    private EchoServer(String name) {
        this.name = name;
    }

    /** Starts TCP and UDP servers on {@code ports}, their sockets created inside {@code ns}. */
    public static EchoServer start(NetnsThread ns, String name, int... ports) {
        EchoServer s = new EchoServer(name);
        try {
            for (int port : ports) {
                ServerSocket tcp = ns.call(() -> {
                    ServerSocket ss = new ServerSocket();
                    ss.setReuseAddress(true);
                    ss.bind(new InetSocketAddress(InetAddress.getByName("::"), port), 64);
                    return ss;
                });
                s.sockets.add(tcp);
                s.thread(() -> s.serveTcp(tcp), "tcp-" + name + "-" + port);
                DatagramSocket udp = ns.call(() -> new DatagramSocket(new InetSocketAddress(InetAddress.getByName("::"), port)));
                s.sockets.add(udp);
                s.thread(() -> s.serveUdp(udp), "udp-" + name + "-" + port);
            }
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
        return s;
    }

    public String name() {
        return name;
    }

    private void thread(Runnable r, String n) {
        Thread t = new Thread(r, n);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    private String reply(InetAddress source) {
        return name + " " + IpAddress.ofBytes(source.getAddress());
    }

    private void serveTcp(ServerSocket ss) {
        while (!ss.isClosed()) {
            try (Socket c = ss.accept()) {
                OutputStream out = c.getOutputStream();
                out.write((reply(c.getInetAddress()) + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            } catch (IOException e) {
                if (ss.isClosed()) {
                    return;
                }
            }
        }
    }

    private void serveUdp(DatagramSocket ds) {
        byte[] buf = new byte[1500];
        while (!ds.isClosed()) {
            try {
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                ds.receive(p);
                byte[] r = reply(p.getAddress()).getBytes(StandardCharsets.UTF_8);
                ds.send(new DatagramPacket(r, r.length, p.getSocketAddress()));
            } catch (IOException e) {
                if (ds.isClosed()) {
                    return;
                }
            }
        }
    }

    @Override
    public void close() {
        for (AutoCloseable c : sockets) {
            try {
                c.close();
            } catch (Exception e) {
                // closing a test socket: nothing left to do
            }
        }
        for (Thread t : threads) {
            try {
                t.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
