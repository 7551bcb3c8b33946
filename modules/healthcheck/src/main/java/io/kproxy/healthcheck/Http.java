package io.kproxy.healthcheck;

import io.kproxy.listen.HttpListener;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.IpAddress;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * Small pieces shared by kproxy's HTTP servers ({@link HttpListener}): binding a Go-style
 * {@code host:port}, and answers with upstream's headers.
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

    /** {@code body} with {@code status} and upstream's JSON headers ({@code X-Content-Type-Options} is always sent). */
    static HttpListener.Response json(int status, String body) {
        return new HttpListener.Response(status, "application/json", body);
    }

    /** {@code body} as text of {@code contentType}. */
    static HttpListener.Response text(String contentType, String body) {
        return new HttpListener.Response(200, contentType, body);
    }
}
