package io.kproxy.source.kube.internal;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kproxy.source.kube.ClientConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a kubeconfig file as client-go's {@code clientcmd} does for kube-proxy
 * ({@code cmd/kube-proxy/app/server.go} {@code createClient}: the explicit file only, the server
 * overridden by {@code --master}), and checks it as {@code clientcmd/validation.go} does, failing
 * with the field and the reason ({@link ClientConfigException}) instead of falling back to
 * anonymous requests.
 *
 * <p>Supported: {@code server}, {@code certificate-authority}(-data),
 * {@code insecure-skip-tls-verify}, {@code tls-server-name}; {@code token}, {@code tokenFile}
 * (re-read every minute, see {@link FileToken}), {@code client-certificate}(-data) with
 * {@code client-key}(-data), {@code username}/{@code password}, {@code exec} plugins returning a
 * token. Refused with a reason: {@code auth-provider} (removed from client-go's providers),
 * interactive exec plugins. Relative paths are resolved against the kubeconfig's directory, as
 * {@code clientcmd.ResolveLocalPaths} does. No message carries a credential. Stateless.
 */
public final class Kubeconfig {

    /** A kubeconfig larger than this is refused before parsing. */
    static final long MAX_BYTES = 1 << 20;

    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build()).build());

    private final Path file;
    private final String origin;

    private Kubeconfig(Path file) {
        this.file = file;
        this.origin = "kubeconfig " + file;
    }

    /**
     * The settings {@code file} names for its current context, with the server replaced by
     * {@code masterOverride} unless it is "". Reads the files it names (blocking); runs no plugin.
     *
     * @throws ClientConfigException naming the field and the reason
     */
    public static ClientSettings resolve(Path file, String masterOverride) {
        return new Kubeconfig(file).resolve(masterOverride);
    }

    private ClientSettings resolve(String masterOverride) {
        JsonNode root = parse();
        String current = text(root, "current-context", "current-context");
        if (current.isEmpty()) {
            if (!masterOverride.isEmpty()) {
                return ClientSettings.anonymous(origin + " (no current-context) and --master", MasterUrl.check(masterOverride, "flags", "--master"));
            }
            throw fail("current-context", "not set, and no --master given");
        }
        JsonNode context = named(root, "contexts", current, "context", "current-context");
        String ctx = "contexts[" + current + "].context";
        String clusterName = text(context, "cluster", ctx + ".cluster");
        String userName = text(context, "user", ctx + ".user");
        Cluster cluster = clusterName.isEmpty() ? new Cluster("", "", "", false, "")
                : cluster(named(root, "clusters", clusterName, "cluster", ctx + ".cluster"), "clusters[" + clusterName + "].cluster");
        String server = masterOverride.isEmpty() ? cluster.server() : masterOverride;
        if (server.isEmpty()) {
            throw fail(clusterName.isEmpty() ? ctx + ".cluster" : "clusters[" + clusterName + "].cluster.server",
                    "no server set (and no --master given)");
        }
        server = masterOverride.isEmpty() ? MasterUrl.check(server, origin, "clusters[" + clusterName + "].cluster.server")
                : MasterUrl.check(server, "flags", "--master");
        if (userName.isEmpty()) {
            return new ClientSettings(origin, server, cluster.caFile(), cluster.caData(), cluster.insecure(),
                    cluster.tlsServerName(), "", "", "", "", "", "", Optional.empty());
        }
        String u = "users[" + userName + "].user";
        JsonNode user = named(root, "users", userName, "user", ctx + ".user");
        if (user.has("auth-provider")) {
            throw fail(u + ".auth-provider", "auth-provider plugins are not supported (client-go removed its providers); use an exec plugin");
        }
        String token = text(user, "token", u + ".token");
        String tokenFile = path(user, "tokenFile", u + ".tokenFile");
        String username = text(user, "username", u + ".username");
        String password = text(user, "password", u + ".password");
        boolean exec = user.has("exec") && !user.get("exec").isNull();
        boolean bearer = !token.isEmpty() || !tokenFile.isEmpty();
        boolean basic = !username.isEmpty() || !password.isEmpty();
        if ((bearer ? 1 : 0) + (basic ? 1 : 0) + (exec ? 1 : 0) > 1) {
            throw fail(u, "more than one authentication method (token/tokenFile, username/password, exec); only one is allowed");
        }
        String certFile = path(user, "client-certificate", u + ".client-certificate");
        String certData = data(user, "client-certificate-data", u + ".client-certificate-data");
        String keyFile = path(user, "client-key", u + ".client-key");
        String keyData = data(user, "client-key-data", u + ".client-key-data");
        both(certFile, certData, u + ".client-certificate");
        both(keyFile, keyData, u + ".client-key");
        boolean cert = !certFile.isEmpty() || !certData.isEmpty();
        boolean key = !keyFile.isEmpty() || !keyData.isEmpty();
        if (cert != key) {
            throw fail(u + (cert ? ".client-key" : ".client-certificate"),
                    "client-certificate and client-key must be given together");
        }
        Optional<TokenSource> tokens = Optional.empty();
        if (!tokenFile.isEmpty()) {
            try {
                FileToken.readOnce(Path.of(tokenFile));
            } catch (CredentialException e) {
                throw fail(u + ".tokenFile", e.getMessage());
            }
            // client-go prefers the file when both are set (transport.NewBearerAuthWithRefreshRoundTripper).
            tokens = Optional.of(new FileToken(Path.of(tokenFile)));
        } else if (!token.isEmpty()) {
            try {
                tokens = Optional.of(new StaticToken(token));
            } catch (CredentialException e) {
                throw fail(u + ".token", e.getMessage());
            }
        } else if (exec) {
            tokens = Optional.of(exec(user.get("exec"), u + ".exec"));
        }
        return new ClientSettings(origin, server, cluster.caFile(), cluster.caData(), cluster.insecure(), cluster.tlsServerName(),
                certFile, certData, keyFile, keyData, username, password, tokens);
    }

    private record Cluster(String server, String caFile, String caData, boolean insecure, String tlsServerName) {
    }

    private Cluster cluster(JsonNode c, String at) {
        String caFile = path(c, "certificate-authority", at + ".certificate-authority");
        String caData = data(c, "certificate-authority-data", at + ".certificate-authority-data");
        both(caFile, caData, at + ".certificate-authority");
        JsonNode insecure = c.path("insecure-skip-tls-verify");
        if (!insecure.isMissingNode() && !insecure.isNull() && !insecure.isBoolean()) {
            throw fail(at + ".insecure-skip-tls-verify", "must be true or false");
        }
        return new Cluster(text(c, "server", at + ".server"), caFile, caData, insecure.asBoolean(false),
                text(c, "tls-server-name", at + ".tls-server-name"));
    }

    private ExecToken exec(JsonNode e, String at) {
        if (!e.isObject()) {
            throw fail(at, "must be a mapping");
        }
        String command = text(e, "command", at + ".command");
        if (command.isEmpty()) {
            throw fail(at + ".command", "must be set to use an exec plugin");
        }
        String apiVersion = text(e, "apiVersion", at + ".apiVersion");
        if (!apiVersion.equals("client.authentication.k8s.io/v1") && !apiVersion.equals("client.authentication.k8s.io/v1beta1")) {
            throw fail(at + ".apiVersion", "must be client.authentication.k8s.io/v1 or /v1beta1");
        }
        if ("Always".equals(text(e, "interactiveMode", at + ".interactiveMode"))) {
            throw fail(at + ".interactiveMode", "Always needs a terminal, which a node agent does not have");
        }
        // clientcmd.ResolveLocalPaths: a relative command with a slash is relative to the kubeconfig.
        if (command.contains("/") && !Path.of(command).isAbsolute()) {
            command = dir().resolve(command).normalize().toString();
        }
        List<String> argv = new ArrayList<>();
        argv.add(command);
        JsonNode args = e.path("args");
        for (int i = 0; i < args.size(); i++) {
            if (!args.get(i).isTextual()) {
                throw fail(at + ".args[" + i + "]", "must be a string");
            }
            argv.add(args.get(i).asText());
        }
        Map<String, String> env = new LinkedHashMap<>();
        JsonNode vars = e.path("env");
        for (int i = 0; i < vars.size(); i++) {
            String name = text(vars.get(i), "name", at + ".env[" + i + "].name");
            if (name.isEmpty()) {
                throw fail(at + ".env[" + i + "].name", "must be set");
            }
            env.put(name, text(vars.get(i), "value", at + ".env[" + i + "].value"));
        }
        return new ExecToken(argv, env, apiVersion, Instant::now);
    }

    private JsonNode parse() {
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw fail("(file)", "larger than " + MAX_BYTES + " bytes");
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw fail("(file)", "cannot read: " + IoReason.of(e));
        }
        JsonNode root;
        try {
            root = YAML.readTree(bytes);
        } catch (JacksonException e) {
            // The parser's message quotes the offending line, which may hold a token: say where only.
            throw fail("(file)", "not valid YAML (line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr() + ")");
        } catch (IOException e) {
            throw fail("(file)", "cannot read: " + IoReason.of(e));
        }
        if (root == null || !root.isObject()) {
            throw fail("(file)", "not a kubeconfig (the document is not a mapping)");
        }
        return root;
    }

    /** The {@code inner} object of the entry of list {@code list} whose {@code name} is {@code name}. */
    private JsonNode named(JsonNode root, String list, String name, String inner, String referencedBy) {
        JsonNode entries = root.path(list);
        if (!entries.isMissingNode() && !entries.isNull() && !entries.isArray()) {
            throw fail(list, "must be a list");
        }
        for (JsonNode entry : entries) {
            if (name.equals(entry.path("name").asText(null))) {
                JsonNode v = entry.path(inner);
                if (v.isMissingNode() || v.isNull()) {
                    return YAML.createObjectNode();
                }
                if (!v.isObject()) {
                    throw fail(list + "[" + name + "]." + inner, "must be a mapping");
                }
                return v;
            }
        }
        throw fail(referencedBy, "names " + list.substring(0, list.length() - 1) + " \"" + name + "\", which the kubeconfig's " + list + " do not define");
    }

    private String text(JsonNode node, String key, String at) {
        JsonNode v = node.path(key);
        if (v.isMissingNode() || v.isNull()) {
            return "";
        }
        if (!v.isValueNode() || v.isBinary()) {
            throw fail(at, "must be a string");
        }
        return v.asText();
    }

    /** A file path, resolved against the kubeconfig's directory, that must be readable. */
    private String path(JsonNode node, String key, String at) {
        String p = text(node, key, at);
        if (p.isEmpty()) {
            return "";
        }
        Path resolved = dir().resolve(p).normalize();
        if (!Files.isRegularFile(resolved)) {
            throw fail(at, "cannot read " + resolved + ": " + (Files.exists(resolved) ? "not a regular file" : "no such file"));
        }
        if (!Files.isReadable(resolved)) {
            throw fail(at, "cannot read " + resolved + ": permission denied");
        }
        return resolved.toString();
    }

    /** Base64 data (what fabric8 expects for the {@code -data} fields); checked, never quoted. */
    private String data(JsonNode node, String key, String at) {
        String d = text(node, key, at);
        if (d.isEmpty()) {
            return "";
        }
        try {
            Base64.getDecoder().decode(d.replaceAll("\\s", ""));
        } catch (IllegalArgumentException e) {
            throw fail(at, "not valid base64");
        }
        return d;
    }

    private void both(String file, String data, String at) {
        if (!file.isEmpty() && !data.isEmpty()) {
            throw fail(at, "both the file and the -data field are set; set one");
        }
    }

    private Path dir() {
        Path parent = file.toAbsolutePath().getParent();
        return parent == null ? Path.of("/") : parent;
    }

    private ClientConfigException fail(String field, String reason) {
        return new ClientConfigException(origin, field, reason);
    }
}
