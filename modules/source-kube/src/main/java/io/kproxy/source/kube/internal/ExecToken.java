package io.kproxy.source.kube.internal;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A token from a kubeconfig's exec credential plugin, run as client-go runs it
 * ({@code staging/src/k8s.io/client-go/plugin/pkg/client/auth/exec/exec.go}): the command with
 * its arguments and extra environment, {@code KUBERNETES_EXEC_INFO} describing the request
 * (never interactive: a node agent has no terminal), standard error passed through, standard
 * output parsed as an {@code ExecCredential} of the configured {@code apiVersion}. The token is
 * kept until its {@code expirationTimestamp} (for ever without one) or until {@link #expire()}
 * (a 401). Plugins that return a client certificate instead of a token are refused with a clear
 * error. A run is bounded by {@link #TIMEOUT}. Thread-safe (synchronized).
 */
public final class ExecToken implements TokenSource {

    /** The longest a plugin may run; client-go waits without bound, a node agent must not. */
    public static final Duration TIMEOUT = Duration.ofSeconds(60);

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<String> command;
    private final Map<String, String> env;
    private final String apiVersion;
    private final Supplier<Instant> clock;
    private String token;
    private Instant expiresAt;

    /**
     * @param command    the command (resolved against the kubeconfig's directory when it is a
     *                   relative path with a slash) and its arguments
     * @param env        extra environment variables
     * @param apiVersion the {@code client.authentication.k8s.io} version the plugin speaks
     */
    public ExecToken(List<String> command, Map<String, String> env, String apiVersion, Supplier<Instant> clock) {
        this.command = List.copyOf(command);
        this.env = Map.copyOf(env);
        this.apiVersion = apiVersion;
        this.clock = clock;
    }

    @Override
    public synchronized String getToken() {
        Instant now = clock.get();
        if (token != null && (expiresAt == null || now.isBefore(expiresAt))) {
            return token;
        }
        run();
        return token;
    }

    @Override
    public synchronized void expire() {
        token = null;
    }

    @Override
    public String describe() {
        return "exec " + command.getFirst();
    }

    private void run() {
        String what = "exec plugin " + command.getFirst();
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().putAll(env);
        pb.environment().put("KUBERNETES_EXEC_INFO",
                "{\"kind\":\"ExecCredential\",\"apiVersion\":\"" + apiVersion + "\",\"spec\":{\"interactive\":false}}");
        byte[] out;
        try {
            Process p = pb.start();
            try (InputStream in = p.getInputStream()) {
                out = in.readNBytes(1 << 20);
            }
            if (!p.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new CredentialException(what + " did not finish within " + TIMEOUT.toSeconds() + " s");
            }
            if (p.exitValue() != 0) {
                throw new CredentialException(what + " exited with status " + p.exitValue());
            }
        } catch (IOException e) {
            throw new CredentialException(what + " could not run: " + IoReason.of(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CredentialException(what + " interrupted", e);
        }
        JsonNode credential;
        try {
            credential = JSON.readTree(new String(out, StandardCharsets.UTF_8));
        } catch (JacksonException e) {
            // The parser's message quotes the output, which may hold the token: say where only.
            throw new CredentialException(what + " printed no valid JSON (line " + e.getLocation().getLineNr() + ")");
        }
        if (credential == null || !credential.isObject() || !apiVersion.equals(credential.path("apiVersion").asText())) {
            throw new CredentialException(what + " printed no ExecCredential of apiVersion " + apiVersion);
        }
        JsonNode status = credential.path("status");
        if (!status.path("token").isTextual()) {
            throw new CredentialException(status.has("clientCertificateData")
                    ? what + " returned a client certificate; kproxy supports plugins that return a token"
                    : what + " returned no status.token");
        }
        String fresh = TokenSource.checked(status.path("token").asText(), what);
        Instant expiry = null;
        if (status.path("expirationTimestamp").isTextual()) {
            try {
                expiry = Instant.parse(status.path("expirationTimestamp").asText());
            } catch (DateTimeParseException e) {
                throw new CredentialException(what + " returned an expirationTimestamp that is not RFC 3339");
            }
        }
        token = fresh;
        expiresAt = expiry;
    }

    @Override
    public String toString() {
        return "ExecToken[" + command.getFirst() + "]";
    }
}
