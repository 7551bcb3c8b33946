package io.kproxy.source.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.source.kube.ClientConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KubeconfigTest {

    private static final String TOKEN = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJrdWJlY29uZmlnLXRlc3QifQ.c2lnLWt1YmVjb25maWc";
    private static final String PEM = Base64.getEncoder().encodeToString("-----BEGIN CERTIFICATE-----\n".getBytes());

    @TempDir
    Path dir;

    private Path write(String user) throws IOException {
        return writeRaw("""
                apiVersion: v1
                kind: Config
                clusters:
                - name: c
                  cluster:
                    server: https://192.0.2.10:6443
                    certificate-authority: ca.crt
                contexts:
                - name: x
                  context: {cluster: c, user: u}
                current-context: x
                users:
                - name: u
                  user:
                %s
                """.formatted(user.indent(4).stripTrailing()));
    }

    private Path writeRaw(String text) throws IOException {
        Files.writeString(dir.resolve("ca.crt"), "-----BEGIN CERTIFICATE-----\n");
        Path f = dir.resolve("kubeconfig.conf");
        Files.writeString(f, text);
        return f;
    }

    @Test
    void aTokenFileIsResolvedAgainstTheKubeconfigsDirectoryAndTrimmed() throws IOException {
        Files.writeString(dir.resolve("token"), "\n  " + TOKEN + "\r\n\n");
        ClientSettings s = Kubeconfig.resolve(write("tokenFile: token"), "");
        assertThat(s.server()).isEqualTo("https://192.0.2.10:6443");
        assertThat(s.caFile()).isEqualTo(dir.resolve("ca.crt").toString());
        assertThat(s.token()).get().isInstanceOf(FileToken.class);
        assertThat(s.token().get().getToken()).isEqualTo(TOKEN);
        assertThat(s.authentication()).isEqualTo("tokenFile " + dir.resolve("token"));
        assertThat(s.toString()).doesNotContain(TOKEN);
    }

    @Test
    void everyCredentialFormResolves() throws IOException {
        assertThat(Kubeconfig.resolve(write("token: " + TOKEN), "").token().get().getToken()).isEqualTo(TOKEN);
        Files.writeString(dir.resolve("c.pem"), "x");
        Files.writeString(dir.resolve("k.pem"), "x");
        ClientSettings files = Kubeconfig.resolve(write("client-certificate: c.pem\nclient-key: k.pem"), "");
        assertThat(files.clientCertFile()).isEqualTo(dir.resolve("c.pem").toString());
        assertThat(files.authentication()).isEqualTo("client-certificate " + dir.resolve("c.pem"));
        ClientSettings data = Kubeconfig.resolve(write("client-certificate-data: " + PEM + "\nclient-key-data: " + PEM), "");
        assertThat(data.clientKeyData()).isEqualTo(PEM);
        ClientSettings exec = Kubeconfig.resolve(write("""
                exec:
                  apiVersion: client.authentication.k8s.io/v1
                  command: ./bin/plugin
                  args: [get-token]
                  env: [{name: A, value: b}]"""), "");
        assertThat(exec.authentication()).isEqualTo("exec " + dir.resolve("bin/plugin"));
        ClientSettings basic = Kubeconfig.resolve(write("username: admin\npassword: " + TOKEN), "");
        assertThat(basic.authentication()).isEqualTo("basic").doesNotContain(TOKEN);
        ClientSettings overridden = Kubeconfig.resolve(write("token: " + TOKEN), "https://10.0.0.1:6443");
        assertThat(overridden.server()).isEqualTo("https://10.0.0.1:6443");
        assertThat(Kubeconfig.resolve(write("{}"), "").authentication()).isEqualTo("anonymous");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "tokenFile: absent                           | users[u].user.tokenFile             | no such file",
        "tokenFile: empty                            | users[u].user.tokenFile             | empty token",
        "tokenFile: twolines                         | users[u].user.tokenFile             | control character",
        "token: \"a\\nb\"                            | users[u].user.token                 | control character",
        "client-certificate: ca.crt                  | users[u].user.client-key            | together",
        "client-key-data: '!!!'                      | users[u].user.client-key-data       | base64",
        "{token: x, username: a}                     | users[u].user                       | more than one",
        "{token: x, exec: {command: a, apiVersion: client.authentication.k8s.io/v1}} | users[u].user | more than one",
        "exec: {command: a}                          | users[u].user.exec.apiVersion       | must be",
        "exec: {apiVersion: client.authentication.k8s.io/v1} | users[u].user.exec.command  | must be set",
        "exec: {command: a, apiVersion: client.authentication.k8s.io/v1, interactiveMode: Always} | users[u].user.exec.interactiveMode | terminal",
        "auth-provider: {name: oidc}                 | users[u].user.auth-provider         | not supported",
        "token: [a]                                  | users[u].user.token                 | must be a string"})
    void badUserSettingsNameTheFieldAndTheReason(String user, String field, String reason) throws IOException {
        Files.writeString(dir.resolve("empty"), "\n\t \n");
        Files.writeString(dir.resolve("twolines"), "abc\ndef\n");
        assertThatThrownBy(() -> Kubeconfig.resolve(write(user), "")).isInstanceOf(ClientConfigException.class)
                .hasMessageContaining(field + ": ").hasMessageContaining(reason)
                .satisfies(e -> assertThat(((ClientConfigException) e).field()).isEqualTo(field));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "current-context: y                                                  | current-context            | do not define",
        "current-context: ''                                                 | current-context            | not set",
        "clusters: {}                                                        | clusters                   | must be a list",
        "clusters: [{name: c, cluster: {server: 'ftp://x'}}]                 | clusters[c].cluster.server | http(s)",
        "clusters: [{name: c, cluster: {}}]                                  | clusters[c].cluster.server | no server",
        "clusters: [{name: c, cluster: {server: 'https://x', certificate-authority: nope}}] | clusters[c].cluster.certificate-authority | no such file",
        "clusters: [{name: c, cluster: {server: 'https://x', insecure-skip-tls-verify: 'yes'}}] | clusters[c].cluster.insecure-skip-tls-verify | true or false"})
    void badClusterAndContextSettingsNameTheField(String override, String field, String reason) throws IOException {
        String base = """
                clusters: [{name: c, cluster: {server: 'https://192.0.2.10:6443'}}]
                contexts: [{name: x, context: {cluster: c, user: u}}]
                current-context: x
                users: [{name: u, user: {token: abc}}]
                """;
        String key = override.substring(0, override.indexOf(':'));
        String text = base.lines().filter(l -> !l.startsWith(key + ":")).reduce("", (a, b) -> a + b + "\n") + override + "\n";
        assertThatThrownBy(() -> Kubeconfig.resolve(writeRaw(text), "")).isInstanceOf(ClientConfigException.class)
                .hasMessageContaining(field + ": ").hasMessageContaining(reason);
    }

    @Test
    void noContextWithMasterIsAnonymousAndNothingAtAllIsRefused() throws IOException {
        Path f = writeRaw("apiVersion: v1\nkind: Config\n");
        assertThat(Kubeconfig.resolve(f, "10.0.0.1:6443").server()).isEqualTo("https://10.0.0.1:6443");
        assertThatThrownBy(() -> Kubeconfig.resolve(f, "")).hasMessageContaining("current-context: not set");
        assertThatThrownBy(() -> Kubeconfig.resolve(dir.resolve("absent.conf"), "")).hasMessageContaining("(file): cannot read: no such file");
        assertThatThrownBy(() -> Kubeconfig.resolve(writeRaw("- a list"), "")).hasMessageContaining("not a mapping");
    }

    /**
     * Seeded fuzz: a valid kubeconfig holding the token inline, mutated at random (YAML's
     * syntax characters inserted, lines cut, characters dropped). Every case resolves or is
     * refused with a {@link ClientConfigException}; no message quotes any 12 characters of the token.
     */
    @Test
    void mutatedKubeconfigsAreRefusedCleanlyAndNeverQuoteTheToken() throws IOException {
        long seed = Long.getLong("kproxy.fuzz.seed", System.nanoTime());
        Random random = new Random(seed);
        String valid = """
                apiVersion: v1
                kind: Config
                clusters: [{name: c, cluster: {server: 'https://192.0.2.10:6443'}}]
                contexts:
                - name: x
                  context: {cluster: c, user: u}
                current-context: x
                users:
                - name: u
                  user:
                    token: %s
                """.formatted(TOKEN);
        String syntax = ":{}[],-&*!|>'\"#%@`\n\t ";
        int refused = 0;
        for (int i = 0; i < 400; i++) {
            StringBuilder b = new StringBuilder(valid);
            for (int m = 1 + random.nextInt(4); m > 0; m--) {
                int at = random.nextInt(b.length());
                switch (random.nextInt(3)) {
                    case 0 -> b.insert(at, syntax.charAt(random.nextInt(syntax.length())));
                    case 1 -> b.deleteCharAt(at);
                    default -> b.insert(at, "\n" + " ".repeat(random.nextInt(6)));
                }
            }
            Path f = writeRaw(b.toString());
            try {
                Kubeconfig.resolve(f, "");
            } catch (ClientConfigException e) {
                refused++;
                for (int w = 0; w + 12 <= TOKEN.length(); w++) {
                    assertThat(e.getMessage()).as("seed=%d case=%d", seed, i).doesNotContain(TOKEN.substring(w, w + 12));
                }
            } catch (RuntimeException e) {
                throw new AssertionError("seed=" + seed + " case=" + i + ": " + e.getClass().getName(), e);
            }
        }
        assertThat(refused).as("seed=%d: the mutations do break kubeconfigs", seed).isGreaterThan(50);
        System.out.println("kubeconfig fuzz seed=" + seed + " cases=400 refused=" + refused + " leaks=0 other-exceptions=0");
    }
}
