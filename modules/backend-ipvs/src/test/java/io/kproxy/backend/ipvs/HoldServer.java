package io.kproxy.backend.ipvs;

import io.kproxy.netns.NetnsThread;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A TCP server inside a namespace that keeps each connection open: it greets with its name and
 * echoes every line until the client closes (the long-lived connection of the graceful
 * termination flow; the topology's echo servers answer once and close). Daemon threads.
 */
final class HoldServer implements AutoCloseable {

    private final ServerSocket socket;

    private HoldServer(ServerSocket socket) {
        this.socket = socket;
    }

    static HoldServer start(NetnsThread ns, String name, int port) {
        ServerSocket ss = ns.call(() -> {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getByName("::"), port), 16);
            return s;
        });
        Thread.ofPlatform().daemon().name("hold-" + name).start(() -> {
            while (!ss.isClosed()) {
                try {
                    Socket c = ss.accept();
                    Thread.ofPlatform().daemon().name("hold-" + name + "-conn").start(() -> serve(c, name));
                } catch (IOException e) {
                    return;
                }
            }
        });
        return new HoldServer(ss);
    }

    private static void serve(Socket c, String name) {
        try (c; BufferedReader in = new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.UTF_8));
                PrintWriter out = new PrintWriter(c.getOutputStream(), true, StandardCharsets.UTF_8)) {
            out.println(name);
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                out.println(name + " " + line);
            }
        } catch (IOException e) {
            // The client went away (a reset included): nothing to answer.
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
