package io.kproxy.ui;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** GETs and other methods against a {@link UiServer}, for the tests. */
record Http(UiServer server) {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** The status and body of {@code method path}. */
    HttpResponse<String> send(String method, String path) {
        URI uri = URI.create("http://127.0.0.1:" + server.address().getPort() + path);
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).method(method, HttpRequest.BodyPublishers.noBody());
        try {
            return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The status of a GET of /api/summary sent by hand with {@code Host: host} (the JDK client will not set it). */
    int rawStatus(String host) {
        try (java.net.Socket s = new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), server.address().getPort())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(("GET /api/summary HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            String status = new java.io.BufferedReader(new java.io.InputStreamReader(s.getInputStream(), java.nio.charset.StandardCharsets.US_ASCII)).readLine();
            return Integer.parseInt(status.split(" ")[1]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    HttpResponse<String> get(String path) {
        return send("GET", path);
    }
}
