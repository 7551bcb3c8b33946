package io.kproxy.source.kube.internal;

import java.util.Optional;

/**
 * Where the API server is and how to authenticate to it, resolved from a kubeconfig, the
 * in-cluster service account or {@code --master} alone. Immutable; no null component (strings
 * use "" for "none"). Holds credentials: {@link #toString()} names their sources only.
 *
 * @param origin         where the settings come from, for messages ({@code kubeconfig /path},
 *                       {@code in-cluster configuration}, {@code --master})
 * @param server         the API server's URL
 * @param caFile         a certificate authority file, or ""
 * @param caData         a base64 PEM certificate authority, or ""
 * @param insecure       {@code insecure-skip-tls-verify}
 * @param tlsServerName  the name to verify the server's certificate against, or ""
 * @param clientCertFile a client certificate file, or ""
 * @param clientCertData a base64 PEM client certificate, or ""
 * @param clientKeyFile  a client key file, or ""
 * @param clientKeyData  a base64 PEM client key, or ""
 * @param username       basic authentication user, or ""
 * @param password       basic authentication password, or ""
 * @param token          where bearer tokens come from, if any
 */
public record ClientSettings(String origin, String server, String caFile, String caData, boolean insecure,
                             String tlsServerName, String clientCertFile, String clientCertData, String clientKeyFile,
                             String clientKeyData, String username, String password, Optional<TokenSource> token) {

    public ClientSettings {
        if (origin == null || server == null || caFile == null || caData == null || tlsServerName == null
                || clientCertFile == null || clientCertData == null || clientKeyFile == null || clientKeyData == null
                || username == null || password == null || token == null) {
            throw new IllegalArgumentException("no component may be null (use \"\" for none)");
        }
    }

    /** {@code server} alone, no credentials (upstream's {@code --master} without a kubeconfig). */
    public static ClientSettings anonymous(String origin, String server) {
        return new ClientSettings(origin, server, "", "", false, "", "", "", "", "", "", "", Optional.empty());
    }

    /** How requests authenticate, for logs: {@code tokenFile /path}, {@code client certificate}, {@code anonymous}. */
    public String authentication() {
        StringBuilder s = new StringBuilder();
        token.ifPresent(t -> s.append(t.describe()));
        if (!clientCertFile.isEmpty() || !clientCertData.isEmpty()) {
            s.append(s.isEmpty() ? "" : "+").append("client-certificate")
                    .append(clientCertFile.isEmpty() ? "-data" : " " + clientCertFile);
        }
        if (!username.isEmpty()) {
            s.append(s.isEmpty() ? "" : "+").append("basic");
        }
        return s.isEmpty() ? "anonymous" : s.toString();
    }

    /** Names sources, never credentials. */
    @Override
    public String toString() {
        return "ClientSettings[origin=" + origin + ", server=" + server + ", auth=" + authentication() + "]";
    }
}
