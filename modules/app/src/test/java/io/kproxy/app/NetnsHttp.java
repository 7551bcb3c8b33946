package io.kproxy.app;

import io.kproxy.netns.NetnsThread;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Test-only: an HTTP/1.1 GET from inside a network namespace, over a plain socket. */
final class NetnsHttp {

    /** Status code and body; status 0 when nothing answered. */
    record Response(int status, String body) {
    }

    private NetnsHttp() {
    }

    static Response get(NetnsThread ns, String host, int port, String path) {
        return ns.call(() -> {
            try (Socket s = new Socket()) {
                s.setSoTimeout(5_000);
                s.connect(new InetSocketAddress(host, port), 2_000);
                OutputStream out = s.getOutputStream();
                out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = s.getInputStream();
                String all = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                int sp = all.indexOf(' ');
                int status = Integer.parseInt(all.substring(sp + 1, sp + 4));
                int body = all.indexOf("\r\n\r\n");
                return new Response(status, body < 0 ? "" : all.substring(body + 4));
            } catch (IOException e) {
                return new Response(0, e.toString());
            }
        });
    }
}
