package io.kproxy.source.kube.internal;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kproxy.source.kube.ClientConfigException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.security.cert.CertificateException;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Set;
import java.util.Collections;
import javax.net.ssl.SSLException;

/**
 * Why a request to the API server failed, in one word and one short safe line: what an operator
 * needs to tell a wrong address from a firewall, a certificate or a credential problem, without a
 * stack trace. Immutable.
 *
 * @param reason {@code connect-refused}, {@code connect-timeout}, {@code no-route}, {@code dns},
 *               {@code tls}, {@code timeout}, {@code credentials}, {@code http-401},
 *               {@code http-403}, {@code http-NNN}, {@code io}
 * @param detail one line, credentials removed ({@link Redactor}), at most {@link #MAX_DETAIL} characters
 */
public record ApiFailure(String reason, String detail) {

    static final int MAX_DETAIL = 300;

    public ApiFailure {
        detail = oneLine(Redactor.scrub(detail));
    }

    /** The failure an exception (a fabric8 exception, a JDK one, or one of ours) stands for. */
    public static ApiFailure of(Throwable error) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        StringBuilder classes = new StringBuilder();
        ApiFailure status = null;
        for (Throwable t = error; t != null && seen.add(t); t = t.getCause()) {
            classes.append(classes.isEmpty() ? "" : " < ").append(t.getClass().getSimpleName());
            ApiFailure f = direct(t);
            if (f != null) {
                return f;
            }
            if (status == null && t instanceof KubernetesClientException k && k.getCode() > 0) {
                String msg = k.getStatus() != null && k.getStatus().getMessage() != null ? k.getStatus().getMessage() : "";
                status = new ApiFailure("http-" + k.getCode(), msg.isEmpty() ? ofStatus(k.getCode()).detail() : msg);
            }
        }
        return status != null ? status : new ApiFailure("io", classes.toString());
    }

    /** An HTTP error answer. */
    public static ApiFailure ofStatus(int code) {
        String what = switch (code) {
            case 401 -> "unauthorized: the API server did not accept the credentials";
            case 403 -> "forbidden: the credentials are not allowed to list/watch";
            default -> "HTTP " + code;
        };
        return new ApiFailure("http-" + code, what);
    }

    private static ApiFailure direct(Throwable t) {
        String message = t.getMessage() == null ? "" : t.getMessage();
        String lower = message.toLowerCase(Locale.ROOT);
        return switch (t) {
            case CredentialException c -> new ApiFailure("credentials", c.getMessage());
            case ClientConfigException c -> new ApiFailure("credentials", c.getMessage());
            case HttpConnectTimeoutException _ -> new ApiFailure("connect-timeout", "no TCP/TLS connection within the connect timeout");
            case HttpTimeoutException _ -> new ApiFailure("timeout", "no answer within the request timeout");
            case NoRouteToHostException _ -> new ApiFailure("no-route", message);
            case UnknownHostException _ -> new ApiFailure("dns", "cannot resolve " + message);
            case UnresolvedAddressException _ -> new ApiFailure("dns", "cannot resolve the host");
            case SSLException _ -> new ApiFailure("tls", message);
            case CertificateException _ -> new ApiFailure("tls", message);
            case ConnectException _ when lower.contains("refused") -> new ApiFailure("connect-refused", "connection refused");
            // The JDK's HTTP client reports a refused connect as a ConnectException without a
            // message, caused by the ClosedChannelException of the failed channel.
            case ConnectException c when c.getMessage() == null && c.getCause() instanceof java.nio.channels.ClosedChannelException ->
                    new ApiFailure("connect-refused", "connection refused");
            case ConnectException _ when lower.contains("unreachable") || lower.contains("no route") ->
                    new ApiFailure("no-route", message);
            case ConnectException _ when lower.contains("timed out") -> new ApiFailure("connect-timeout", message);
            default -> null;
        };
    }

    private static String oneLine(String s) {
        String flat = s.replaceAll("[\\r\\n\\t]+", " ").strip();
        return flat.length() <= MAX_DETAIL ? flat : flat.substring(0, MAX_DETAIL) + "…";
    }
}
