package io.kproxy.chaos;

import io.kproxy.netns.NetnsThread;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** An HTTP/1.1 GET from inside a namespace (the agent's /healthz and /livez); status 0 when nothing answered. */
final class NodeHttp {

    private NodeHttp() {
    }

    static int status(NetnsThread ns, int port, String path) {
        return ns.call(() -> {
            try (Socket s = new Socket()) {
                s.setSoTimeout(3_000);
                s.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
                OutputStream out = s.getOutputStream();
                out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                String all = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                int sp = all.indexOf(' ');
                return sp < 0 || all.length() < sp + 4 ? 0 : Integer.parseInt(all.substring(sp + 1, sp + 4));
            } catch (IOException | NumberFormatException e) {
                return 0;
            }
        });
    }
}
