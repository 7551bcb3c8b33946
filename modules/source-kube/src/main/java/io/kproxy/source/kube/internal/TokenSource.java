package io.kproxy.source.kube.internal;

/**
 * Where the bearer token of every request comes from: a kubeconfig's {@code token}, a token file
 * (a kubeconfig's {@code tokenFile}, the in-cluster service account's projected token) re-read as
 * client-go does, or an exec plugin. fabric8 asks {@link #getToken()} before every request; the
 * source calls {@link #expire()} when the API server answers 401, so that the next request reads
 * a rotated token at once (client-go's {@code ResetTokenOlderThan} in
 * {@code staging/src/k8s.io/client-go/transport/round_trippers.go}). fabric8 reaches it through
 * {@link TokenProvider}, which never lets a failure escape into the HTTP client.
 *
 * <p>Implementations are thread-safe; {@link #getToken()} may block on file or process I/O. A
 * failure is thrown as {@link CredentialException}, whose message never contains a token.
 */
public sealed interface TokenSource permits StaticToken, FileToken, ExecToken {

    /** The token to send now (never null or empty). */
    String getToken();

    /** Forgets a cached token, so that the next {@link #getToken()} obtains a fresh one. */
    void expire();

    /** What this source is, for logs: {@code token}, {@code tokenFile /path}, {@code exec /path/plugin}. */
    String describe();

    /**
     * The token as the HTTP client will send it, or an exception naming {@code origin}: trimmed
     * of surrounding whitespace (client-go's {@code strings.TrimSpace} in
     * {@code staging/src/k8s.io/client-go/transport/token_source.go}), not empty, and without
     * control characters (which no header may carry, and which would make the HTTP client throw
     * an exception quoting the whole header).
     */
    static String checked(String raw, String origin) {
        String token = raw.strip();
        if (token.isEmpty()) {
            throw new CredentialException(origin + " holds an empty token");
        }
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw new CredentialException(origin + " holds a token with a control character at position " + i
                        + " (a token must be one line)");
            }
        }
        return token;
    }
}
