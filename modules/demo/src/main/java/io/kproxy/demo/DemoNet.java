package io.kproxy.demo;

import io.kproxy.model.IpAddress;
import io.kproxy.netns.NetnsThread;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The demo's private network: a node namespace (the one the engine programs) with a bridge,
 * one namespace per pod on it, each holding one of the probed Service's endpoint IPs and an echo
 * server on the Service's good ports, and a client namespace that opens real TCP connections to
 * the Service's cluster IP. Nothing has a route out of the machine; the machine's own namespace
 * is not touched. Pods and the client use /32 addresses with the node's bridge address
 * {@value #GATEWAY} as an on-link gateway (as Calico does), so any pod IP of the history fits.
 *
 * <pre>
 *   client 100.64.0.2 --\
 *   pod-0  10.x.y.z  ----+-- kbr0 169.254.1.1 (node: forwarding on, the engine's rules)
 *   pod-1  ...       --/
 * </pre>
 *
 * Names are {@code kp-demo-<random>-...}, so concurrent demos and tests never collide.
 * {@link #close()} deletes every namespace (and with it every interface), also after a partial
 * build; idempotent. Not thread-safe to build; {@link #probe} may be called from any thread.
 */
final class DemoNet implements AutoCloseable {

    static final String GATEWAY = "169.254.1.1";

    /** What one connection saw: the pod that answered, or why none did. */
    record Outcome(boolean ok, String detail) {
        @Override
        public String toString() {
            return detail;
        }
    }

    private final String prefix = "kp-demo-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()).substring(2);
    private final List<String> namespaces = new ArrayList<>();
    private final List<ServerSocket> servers = new ArrayList<>();
    private final List<NetnsThread> threads = new ArrayList<>();
    private NetnsThread client;
    private String clientIp;

    /** Builds the network for {@code pods} (each serving {@code ports}); fails cleanly (everything removed). */
    static DemoNet build(Set<IpAddress> pods, Set<Integer> ports) {
        DemoNet n = new DemoNet();
        try {
            n.buildAll(pods, ports);
        } catch (RuntimeException e) {
            n.close();
            throw e;
        }
        return n;
    }

    /** The namespace the engine programs. */
    String node() {
        return prefix + "-node";
    }

    String clientIp() {
        return clientIp;
    }

    private String add(String suffix) {
        String ns = prefix + "-" + suffix;
        Ip.run("ip", "netns", "add", ns);
        namespaces.add(ns);
        Ip.in(ns, "link", "set", "lo", "up");
        return ns;
    }

    private void buildAll(Set<IpAddress> pods, Set<Integer> ports) {
        String node = add("node");
        Ip.in(node, "link", "add", "kbr0", "type", "bridge");
        Ip.in(node, "addr", "add", GATEWAY + "/32", "dev", "kbr0");
        Ip.in(node, "link", "set", "kbr0", "up");
        Ip.run("ip", "netns", "exec", node, "sh", "-c", "echo 1 > /proc/sys/net/ipv4/ip_forward");
        int i = 0;
        for (IpAddress ip : pods) {
            if (!ip.isIpv4()) {
                continue;
            }
            String ns = attach(node, "p" + i, ip.toString());
            NetnsThread t = NetnsThread.enter(ns, "demo-pod");
            threads.add(t);
            for (int port : ports) {
                serve(t, "pod-" + i, ip.toString(), port);
            }
            i++;
        }
        clientIp = freeClientIp(pods);
        attach(node, "cl", clientIp);
        client = NetnsThread.enter(prefix + "-cl", "demo-client");
        threads.add(client);
    }

    /** A /32 host on the bridge: a veth into a new namespace, the address, the on-link gateway, the node's route. */
    private String attach(String node, String suffix, String ip) {
        String ns = add(suffix);
        String port = "v" + suffix;
        Ip.in(node, "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", ns);
        Ip.in(node, "link", "set", port, "master", "kbr0", "up");
        Ip.in(ns, "addr", "add", ip + "/32", "dev", "eth0");
        Ip.in(ns, "link", "set", "eth0", "up");
        Ip.in(ns, "route", "add", GATEWAY, "dev", "eth0", "scope", "link");
        Ip.in(ns, "route", "add", "default", "via", GATEWAY, "dev", "eth0");
        Ip.in(node, "route", "add", ip + "/32", "dev", "kbr0");
        return ns;
    }

    private static String freeClientIp(Set<IpAddress> taken) {
        for (int host = 2; host < 250; host++) {
            String ip = "100.64.0." + host;
            if (!taken.contains(IpAddress.parse(ip))) {
                return ip;
            }
        }
        throw new IllegalStateException("no free client address in 100.64.0.0/24");
    }

    /** An echo server inside the pod: every connection gets {@code <pod> <ip>:<port>} and is closed. */
    private void serve(NetnsThread ns, String pod, String ip, int port) {
        ServerSocket ss = ns.call(() -> {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getByName(ip), port), 64);
            return s;
        });
        servers.add(ss);
        byte[] reply = (pod + " " + ip + ":" + port + "\n").getBytes(StandardCharsets.UTF_8);
        Thread.ofVirtual().name("demo-echo-" + pod + "-" + port).start(() -> {
            while (!ss.isClosed()) {
                try (Socket c = ss.accept(); OutputStream out = c.getOutputStream()) {
                    out.write(reply);
                } catch (IOException e) {
                    // a client that went away, or the server closing: the loop condition decides
                }
            }
        });
    }

    /** One TCP connection from the client to {@code ip:port}, bounded by {@code timeoutMillis}. */
    Outcome probe(String ip, int port, int timeoutMillis) {
        return client.call(() -> {
            try (Socket s = new Socket()) {
                s.setSoTimeout(timeoutMillis);
                s.connect(new InetSocketAddress(InetAddress.getByName(ip), port), timeoutMillis);
                InputStream in = s.getInputStream();
                String line = new String(in.readNBytes(256), StandardCharsets.UTF_8).strip();
                return line.isEmpty() ? new Outcome(false, "connected, but no answer") : new Outcome(true, "answered by " + line);
            } catch (ConnectException e) {
                return new Outcome(false, "connection refused");
            } catch (NoRouteToHostException e) {
                return new Outcome(false, "no route to host");
            } catch (SocketTimeoutException e) {
                return new Outcome(false, "timed out after " + timeoutMillis + " ms");
            }
        });
    }

    @Override
    public void close() {
        servers.forEach(s -> {
            try {
                s.close();
            } catch (IOException e) {
                // closing a demo socket; the namespace goes next anyway
            }
        });
        servers.clear();
        threads.forEach(NetnsThread::close);
        threads.clear();
        for (String ns : namespaces.reversed()) {
            try {
                Ip.run("ip", "netns", "del", ns);
            } catch (Ip.Failed e) {
                System.err.println("kproxy demo: could not delete network namespace " + ns + ": " + e.getMessage());
            }
        }
        namespaces.clear();
    }
}
