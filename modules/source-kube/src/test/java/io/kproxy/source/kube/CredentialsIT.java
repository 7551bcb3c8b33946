package io.kproxy.source.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.kproxy.events.ResourceKind;
import io.kproxy.journal.MemoryEventLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The source against an API server that requires a bearer token and answers anonymous requests
 * with 401, through the real client factory and source: a kubeconfig's {@code tokenFile} ending
 * in a newline works; without a token the source says so in one line per kind naming the address
 * and the 401; and no failure path puts the token into any log line or exception message.
 */
class CredentialsIT {

    /** Distinctive, JWT-shaped (as service account tokens are), so that a leak cannot hide. */
    private static final String TOKEN = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJrcHJveHktdGVzdC1zZWNyZXQifQ.c2lnbmF0dXJlLXRva2VuLTQyNDI";
    /** A wrong token, also distinctive and not JWT-shaped (the redactor's pattern must not be what saves it). */
    private static final String WRONG = "wrong-token-7f3a9c2e5b1d";

    @TempDir
    Path dir;
    private ScriptedApiServer api;
    private MemoryEventLog log;
    private KubeSource source;
    private LogCapture logs;
    private final Map<String, Level> saved = new java.util.HashMap<>();

    @BeforeEach
    void setUp() {
        api = ScriptedApiServer.start();
        api.requireToken(TOKEN);
        Kube.create(api.client(), Kube.service("a", "10.96.0.1", Map.of()));
        Kube.create(api.client(), Kube.node(TestSources.NODE));
        log = new MemoryEventLog();
        // Everything kproxy and fabric8's client log, at every level, is searched for the token.
        level("io.kproxy", Level.TRACE);
        level("io.fabric8.kubernetes", Level.TRACE);
        logs = new LogCapture();
    }

    @AfterEach
    void tearDown() {
        if (source != null) {
            source.close();
        }
        logs.close();
        saved.forEach((name, lvl) -> ((Logger) LoggerFactory.getLogger(name)).setLevel(lvl));
        api.close();
        log.close();
    }

    private void level(String name, Level level) {
        Logger l = (Logger) LoggerFactory.getLogger(name);
        saved.put(name, l.getLevel());
        l.setLevel(level);
    }

    private Path kubeconfig(String user) throws IOException {
        Path f = dir.resolve("kubeconfig.conf");
        Files.writeString(f, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: default
                  cluster:
                    server: %s
                contexts:
                - name: default
                  context:
                    cluster: default
                    user: default
                current-context: default
                users:
                - name: default
                  user:
                %s
                """.formatted(api.url(), user.indent(4).stripTrailing()));
        return f;
    }

    private KubeSourceOptions options(Path kubeconfig) {
        return TestSources.options(api).withMasterUrl("").withKubeconfig(kubeconfig.toString());
    }

    @Test
    void aTokenFileEndingInANewlineListsAndWatches() throws Exception {
        Files.writeString(dir.resolve("token"), TOKEN + "\n");
        // relative to the kubeconfig's directory, as clientcmd resolves it
        source = KubeSource.create(options(kubeconfig("tokenFile: token")), log, KnownObjects.empty());
        source.start();
        source.synced().get(30, TimeUnit.SECONDS);
        await().atMost(30, TimeUnit.SECONDS).until(() -> source.state().connected());
        long mark = log.nextOffset();
        Kube.create(api.client(), Kube.service("b", "10.96.0.2", Map.of()));
        await().atMost(30, TimeUnit.SECONDS).until(() -> LogView.all(log, mark).contains("observed ns1/b"));
        assertThat(LogView.of(log, ResourceKind.SERVICE, 0)).contains("observed ns1/a");
        assertThat(logs.warnings("")).as("no warning on the happy path").isEmpty();
        assertThat(logs.all()).doesNotContain(TOKEN).contains("auth=\"tokenFile " + dir.resolve("token") + "\"");
    }

    @Test
    void anExecPluginsTokenListsAndWatches() throws Exception {
        Path plugin = script("plugin.sh", "printf '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
                + "\"status\":{\"token\":\"%s\"}}' \"$TOKEN_FROM_ENV\"");
        source = KubeSource.create(options(kubeconfig("""
                exec:
                  apiVersion: client.authentication.k8s.io/v1
                  command: %s
                  env: [{name: TOKEN_FROM_ENV, value: "%s"}]
                """.formatted(plugin, TOKEN))), log, KnownObjects.empty());
        source.start();
        source.synced().get(30, TimeUnit.SECONDS);
        await().atMost(30, TimeUnit.SECONDS).until(() -> source.state().connected());
        assertThat(logs.warnings("")).isEmpty();
        assertThat(logs.all()).doesNotContain(TOKEN).contains("auth=\"exec " + plugin + "\"");
    }

    @Test
    void withoutATokenEachKindWarnsOnceNamingTheAddressAnd401() throws Exception {
        source = KubeSource.create(options(kubeconfig("{}")), log, KnownObjects.empty());
        source.start();
        // fabric8 retries a failed list from 200 ms, doubling: several failures per kind in this time
        Thread.sleep(4_000);
        List<String> warnings = logs.warnings("reason=http-401");
        // Services, EndpointSlices, the Node and ServiceCIDRs
        assertThat(warnings).as("one line per kind, naming the address and the 401").hasSize(4)
                .allMatch(w -> w.contains("address=" + api.url()) && w.contains("auth=\"anonymous\"") && !w.contains("\n"));
        assertThat(logs.events()).as("no stack trace from anyone, no other warning")
                .filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                .allMatch(e -> e.getThrowableProxy() == null && e.getFormattedMessage().contains("reason=http-401"));
        assertThat(source.state().synced()).isFalse();
        assertThat(source.state().lastError()).contains("401");
    }

    @Test
    void noFailurePathLogsTheToken() throws Exception {
        // 1. a wrong token (401 from the API server), the right one rotated in later
        Path tokenFile = dir.resolve("token");
        Files.writeString(tokenFile, WRONG + "\n");
        source = KubeSource.create(options(kubeconfig("tokenFile: " + tokenFile)), log, KnownObjects.empty());
        source.start();
        await().atMost(10, TimeUnit.SECONDS).until(() -> !logs.warnings("reason=http-401").isEmpty());
        Files.writeString(tokenFile, TOKEN + "\n");   // rotated: read again after the next 401
        source.synced().get(30, TimeUnit.SECONDS);
        // 2. the token file vanishes: the last good token stays in use
        Files.delete(tokenFile);
        source.close();
        source = null;
        // 3. an unreadable token file at start
        assertThatThrownBy(() -> KubeSource.checkClientConfig(options(kubeconfig("tokenFile: " + tokenFile))))
                .isInstanceOf(ClientConfigException.class).hasMessageContaining("users[default].user.tokenFile")
                .hasMessageContaining("no such file");
        Files.writeString(tokenFile, TOKEN + "\n");
        Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("---------"));
        if (!Files.isReadable(tokenFile)) {   // root reads anything
            assertThatThrownBy(() -> KubeSource.checkClientConfig(options(kubeconfig("tokenFile: " + tokenFile))))
                    .hasMessageContaining("permission denied");
        }
        // 4. a malformed kubeconfig whose broken line holds the token
        Path broken = dir.resolve("broken.conf");
        Files.writeString(broken, "users:\n- name: x\n  user: {token: " + TOKEN + " : : [\n");
        assertThatThrownBy(() -> KubeSource.checkClientConfig(options(broken))).isInstanceOf(ClientConfigException.class)
                .hasMessageContaining("not valid YAML").satisfies(e -> assertThat(e.getMessage()).doesNotContain(TOKEN));
        // 5. an inline token with a line break inside
        assertThatThrownBy(() -> KubeSource.checkClientConfig(options(kubeconfig("token: \"" + TOKEN + "\\nX\""))))
                .hasMessageContaining("users[default].user.token").satisfies(e -> assertThat(e.getMessage()).doesNotContain(TOKEN));
        // 6. exec plugins: one that fails, one that prints the token in broken JSON
        Path failing = script("failing.sh", "echo 'plugin: no credentials today' >&2; exit 3");
        Path garbled = script("garbled.sh", "echo '{\"apiVersion\": \"client.authentication.k8s.io/v1\", \"status\": {\"token\": \"" + TOKEN + "'");
        for (Path plugin : List.of(failing, garbled)) {
            source = KubeSource.create(options(kubeconfig("""
                    exec:
                      apiVersion: client.authentication.k8s.io/v1
                      command: %s
                    """.formatted(plugin))), log, KnownObjects.empty());
            source.start();
            await().atMost(10, TimeUnit.SECONDS).until(() -> !logs.warnings("reason=credentials").isEmpty());
            source.close();
            source = null;
            logs.events();
        }
        assertThat(logs.warnings("reason=credentials")).anyMatch(w -> w.contains("exited with status 3"))
                .anyMatch(w -> w.contains("printed no valid JSON"));
        // 7. TLS: the server speaks plain HTTP, the client expects TLS
        Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-------"));
        source = KubeSource.create(options(kubeconfig("tokenFile: " + tokenFile)).withMasterUrl(api.url().replace("http:", "https:")),
                log, KnownObjects.empty());
        source.start();
        await().atMost(10, TimeUnit.SECONDS).until(() -> !logs.warnings("reason=tls").isEmpty());
        assertThat(source.state().lastError()).doesNotContain(TOKEN).doesNotContain(WRONG);

        String everything = logs.all();
        assertThat(everything).doesNotContain(TOKEN).doesNotContain(WRONG);
        assertThat(everything).as("the paths were exercised").contains("reason=http-401").contains("rotate-token")
                .contains("reason=tls");
        assertThat(logs.events()).filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                .as("no stack traces at WARN").allMatch(e -> e.getThrowableProxy() == null);
        System.out.println("captured log events=" + logs.events().size() + ", token occurrences=0");
    }

    private Path script(String name, String body) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwx------"));
        return f;
    }
}
