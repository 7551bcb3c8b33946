package io.kproxy.listen;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * An HTTP/1.x request line and headers (RFC 9112), read within a byte budget. Only what kproxy's
 * read-only endpoints need is kept: the method, the path (the query is ignored, as Go's mux
 * does), whether the client wants the connection kept and how long its body is.
 *
 * @param method        the method token as sent (methods are case-sensitive)
 * @param path          the request target's path, e.g. {@code /healthz}
 * @param keepAlive     HTTP/1.1 without {@code Connection: close}
 * @param contentLength the body's length; 0 without one
 * @param chunked       the body is {@code Transfer-Encoding}-coded (it is not read; the
 *                      connection is closed after the answer)
 */
record RequestHead(String method, String path, boolean keepAlive, long contentLength, boolean chunked) {

    /** A request that is answered with {@code status} and then the connection closed. */
    static final class Rejected extends Exception {
        private static final long serialVersionUID = 1L;
        private final int status;

        Rejected(int status, String message) {
            super(message);
            this.status = status;
        }

        int status() {
            return status;
        }
    }

    /**
     * Reads one request head of at most {@code max} bytes. Empty when the client closed before
     * sending a byte (the end of a kept-alive connection). {@code firstByte} runs once its first
     * byte arrived.
     *
     * @throws Rejected    431 for a head longer than {@code max}, 400 for a malformed one
     * @throws IOException when the connection fails or its deadline closed it mid-head
     */
    static Optional<RequestHead> read(InputStream in, int max, Runnable firstByte) throws IOException, Rejected {
        byte[] buf = new byte[max];
        int n = 0;
        int lineStart = 0;
        String requestLine = null;
        Headers h = new Headers();
        while (true) {
            int b = in.read();
            if (b < 0) {
                if (n == 0) {
                    return Optional.empty();
                }
                throw new IOException("the client closed the connection mid-request");
            }
            if (n == 0) {
                firstByte.run();
            }
            if (n == max) {
                throw new Rejected(431, "Request Header Fields Too Large");
            }
            buf[n++] = (byte) b;
            if (b != '\n') {
                continue;
            }
            int end = n - 1 > lineStart && buf[n - 2] == '\r' ? n - 2 : n - 1;
            String line = new String(buf, lineStart, end - lineStart, StandardCharsets.ISO_8859_1);
            lineStart = n;
            if (requestLine == null) {
                requestLine = line;
            } else if (line.isEmpty()) {
                return Optional.of(head(requestLine, h));
            } else {
                h.add(line);
            }
        }
    }

    private static RequestHead head(String requestLine, Headers h) throws Rejected {
        String[] parts = requestLine.split(" ", -1);
        if (parts.length != 3 || !isToken(parts[0])) {
            throw new Rejected(400, "malformed request line");
        }
        boolean http11 = parts[2].equals("HTTP/1.1");
        if (!http11 && !parts[2].equals("HTTP/1.0")) {
            throw new Rejected(parts[2].startsWith("HTTP/") ? 505 : 400, "unsupported protocol");
        }
        if (http11 && h.hosts != 1) {
            throw new Rejected(400, "missing required Host header"); // net/http's check and words
        }
        return new RequestHead(parts[0], path(parts[1]), http11 && !h.close, h.contentLength, h.chunked);
    }

    /** The path of an origin-form ({@code /p?q}) or absolute-form ({@code http://h/p}) target. */
    private static String path(String target) throws Rejected {
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                throw new Rejected(400, "malformed request target");
            }
        }
        if (target.startsWith("/")) {
            int q = target.indexOf('?');
            return q < 0 ? target : target.substring(0, q);
        }
        try {
            URI uri = new URI(target);
            if (uri.isAbsolute() && uri.getRawPath() != null) {
                return uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            }
        } catch (URISyntaxException e) {
            // refused below
        }
        throw new Rejected(400, "malformed request target");
    }

    private static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "!#$%&'*+-.^_`|~".indexOf(c) >= 0)) {
                return false;
            }
        }
        return true;
    }

    /** The headers that matter here, validated as they come. */
    private static final class Headers {
        int hosts;
        boolean close;
        long contentLength;
        boolean sawLength;
        boolean chunked;

        void add(String line) throws Rejected {
            int colon = line.indexOf(':');
            if (colon <= 0 || !isToken(line.substring(0, colon))) {
                throw new Rejected(400, "malformed header line");
            }
            String name = line.substring(0, colon).toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).strip();
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c < ' ' && c != '\t' || c == 0x7f) {
                    throw new Rejected(400, "malformed header value");
                }
            }
            switch (name) {
                case "host" -> hosts++;
                case "connection" -> {
                    for (String token : value.split(",")) {
                        close |= token.strip().equalsIgnoreCase("close");
                    }
                }
                case "content-length" -> {
                    long len;
                    try {
                        len = value.chars().allMatch(Character::isDigit) && !value.isEmpty() ? Long.parseLong(value) : -1;
                    } catch (NumberFormatException e) {
                        len = -1;
                    }
                    if (len < 0 || sawLength && len != contentLength) {
                        throw new Rejected(400, "bad Content-Length");
                    }
                    sawLength = true;
                    contentLength = len;
                }
                case "transfer-encoding" -> chunked = true;
                default -> {
                }
            }
        }
    }
}
