package io.kproxy.source.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecTokenTest {

    private static final String V1 = "client.authentication.k8s.io/v1";

    @TempDir
    Path dir;

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));

    private Path plugin(String body) throws IOException {
        Path f = dir.resolve("plugin.sh");
        Files.writeString(f, "#!/bin/sh\necho run >> " + dir.resolve("runs") + "\n" + body + "\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwx------"));
        return f;
    }

    private long runs() throws IOException {
        return Files.exists(dir.resolve("runs")) ? Files.readAllLines(dir.resolve("runs")).size() : 0;
    }

    @Test
    void keepsTheTokenUntilItExpiresOrA401AndTellsThePluginItIsNotInteractive() throws IOException {
        Path p = plugin("""
                case "$KUBERNETES_EXEC_INFO" in *'"interactive":false'*) ;; *) exit 9 ;; esac
                echo '{"apiVersion":"%s","kind":"ExecCredential","status":{"token":"t-'$EXTRA'","expirationTimestamp":"2026-01-01T01:00:00Z"}}'
                """.formatted(V1));
        ExecToken t = new ExecToken(List.of(p.toString()), Map.of("EXTRA", "x"), V1, now::get);
        assertThat(t.getToken()).isEqualTo("t-x");
        assertThat(t.getToken()).isEqualTo("t-x");
        assertThat(runs()).isEqualTo(1);
        now.set(Instant.parse("2026-01-01T01:00:00Z"));
        assertThat(t.getToken()).isEqualTo("t-x");
        assertThat(runs()).as("expired: run again").isEqualTo(2);
        t.expire();
        t.getToken();
        assertThat(runs()).as("after a 401").isEqualTo(3);
    }

    @Test
    void refusesWhatIsNotATokenCredentialWithoutQuotingIt() throws IOException {
        String secret = "secret-value-123456";
        assertThatThrownBy(() -> new ExecToken(List.of(plugin("echo '{\"apiVersion\":\"" + V1 + "\",\"status\":{\"clientCertificateData\":\""
                + secret + "\"}}'").toString()), Map.of(), V1, now::get).getToken()).hasMessageContaining("returned a client certificate");
        assertThatThrownBy(() -> new ExecToken(List.of(plugin("echo '{\"apiVersion\":\"client.authentication.k8s.io/v1beta1\",\"status\":{\"token\":\""
                + secret + "\"}}'").toString()), Map.of(), V1, now::get).getToken()).hasMessageContaining("no ExecCredential of apiVersion " + V1)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(secret));
        assertThatThrownBy(() -> new ExecToken(List.of(dir.resolve("absent").toString()), Map.of(), V1, now::get).getToken())
                .hasMessageContaining("could not run");
    }
}
