package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * {@code kproxy run} refuses an unusable API client configuration before it touches the journal
 * or the kernel: exit 2, the field and the reason on standard error, never the credential.
 */
class RunClientConfigTest {

    private static final String TOKEN = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJydW4tY29tbWFuZC10ZXN0In0.c2lnLXJ1bi0xOQ";

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "missing-token-file | users[default].user.tokenFile | no such file",
        "empty-token-file   | users[default].user.tokenFile | empty token",
        "malformed          | (file)                        | not valid YAML",
        "no-context         | current-context               | not set",
        "unknown-user       | contexts[default].context.user | do not define",
        "cert-without-key   | users[default].user.client-key | together",
        "exec-no-command    | users[default].user.exec.command | must be set"})
    void anUnusableKubeconfigIsRefusedWithFieldAndReason(String kind, String field, String reason) throws IOException {
        Path kubeconfig = dir.resolve("kubeconfig.conf");
        Files.writeString(dir.resolve("empty"), " \n");
        Files.writeString(dir.resolve("cert.pem"), "-----BEGIN CERTIFICATE-----\n");
        String user = switch (kind) {
            case "missing-token-file" -> "tokenFile: " + dir.resolve("absent");
            case "empty-token-file" -> "tokenFile: empty";
            case "cert-without-key" -> "client-certificate: cert.pem";
            case "exec-no-command" -> "exec: {apiVersion: client.authentication.k8s.io/v1}";
            default -> "token: " + TOKEN;
        };
        String text = switch (kind) {
            case "malformed" -> "users:\n- name: default\n  user: {token: " + TOKEN + " : : [\n";
            case "no-context" -> "apiVersion: v1\nkind: Config\nusers: [{name: default, user: {token: " + TOKEN + "}}]\n";
            default -> """
                    apiVersion: v1
                    kind: Config
                    clusters: [{name: default, cluster: {server: "https://192.0.2.10:6443"}}]
                    contexts: [{name: default, context: {cluster: default, user: %s}}]
                    current-context: default
                    users: [{name: default, user: {%s}}]
                    """.formatted(kind.equals("unknown-user") ? "nobody" : "default", user);
        };
        Files.writeString(kubeconfig, text);
        Run r = run("run", "--hostname-override", "node-a", "--kubeconfig", kubeconfig.toString());
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains("kproxy run: kubeconfig " + kubeconfig, field, reason).doesNotContain(TOKEN);
        assertThat(r.err().lines().count()).as("one line").isEqualTo(1);
    }

    record Run(int exit, String out, String err) {
    }

    static Run run(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }
}
