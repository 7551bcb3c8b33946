package io.kproxy.app;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.IpAddress;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * Small pieces shared by kproxy's HTTP servers (the JDK's {@code com.sun.net.httpserver}): binding
 * a Go-style {@code host:port}, and writing an answer with upstream's headers.
 */
final class Http {

    private Http() {
    }

    /**
     * {@code host:port} (IPv6 in brackets) to a socket address; an empty host or {@code 0.0.0.0}
     * / {@code ::} is the wildcard.
     *
     * @throws IllegalArgumentException when it is not an IP and a port
     */
    static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("\"" + hostPort + "\" is not host:port");
        }
        String host = hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("\"" + hostPort + "\" has no numeric port");
        }
        if (host.isEmpty()) {
            return new InetSocketAddress(port);
        }
        try {
            IpAddress ip = IpAddress.parse("address", host);
            return new InetSocketAddress(InetAddress.getByName(ip.toString()), port);
        } catch (InvalidValueException | UnknownHostException e) {
            throw new IllegalArgumentException("\"" + hostPort + "\" does not start with an IP address");
        }
    }

    /** A bound server (not started) whose handlers run on virtual threads. */
    static HttpServer bind(InetSocketAddress address) throws IOException {
        HttpServer server = HttpServer.create(address, 64);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        return server;
    }

    /** Writes {@code body} with {@code status} and upstream's JSON headers. */
    static void json(HttpExchange ex, int status, String body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        send(ex, status, body);
    }

    static void text(HttpExchange ex, int status, String contentType, String body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", contentType);
        ex.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        send(ex, status, body);
    }

    private static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        boolean head = ex.getRequestMethod().equals("HEAD");
        ex.sendResponseHeaders(status, head ? -1 : bytes.length == 0 ? -1 : bytes.length);
        if (!head && bytes.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        }
        ex.close();
    }

    /** 404 for a path the server does not serve (the JDK matches contexts by prefix, Go's mux exactly). */
    static boolean exact(HttpExchange ex, String path) throws IOException {
        if (ex.getRequestURI().getPath().equals(path)) {
            return true;
        }
        text(ex, 404, "text/plain; charset=utf-8", "404 page not found\n");
        return false;
    }
}
