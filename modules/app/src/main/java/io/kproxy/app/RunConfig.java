package io.kproxy.app;

import io.kproxy.config.Availability;
import io.kproxy.config.ConfigException;
import io.kproxy.config.ConfigTrees;
import io.kproxy.config.FieldError;
import io.kproxy.config.ProxyConfig;
import io.kproxy.config.Validator;
import io.kproxy.config.loader.ConfigLoader;
import io.kproxy.config.loader.TextFiles;
import io.kproxy.config.loader.TextLimits;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The configuration {@code kproxy run} works with, resolved as upstream resolves it
 * ({@code cmd/kube-proxy/app/options.go}): with {@code --config}, the file alone (defaulted and
 * validated; every config-mapped flag ignored, with a warning); without it, the defaults with the
 * given flags on top, then validated. {@code --hostname-override} wins over the file and is
 * written into the configuration (upstream's {@code processHostnameOverrideFlag}); without
 * either, the node name is the host name, lower-cased and trimmed (upstream's
 * {@code nodeutil.GetHostname}). Pure except for reading the file and the host name.
 */
final class RunConfig {

    /**
     * A usable configuration.
     *
     * @param config   the effective configuration (what {@code ConfigRecorded} records)
     * @param node     the node this proxy runs for
     * @param warnings what the operator should know (ignored flags)
     */
    record Resolved(ProxyConfig config, NodeName node, List<String> warnings) {
    }

    /** A configuration that cannot be used; the message names every bad field or flag and why. */
    static final class Refused extends Exception {
        Refused(String message) {
            super(message);
        }
    }

    private RunConfig() {
    }

    /**
     * The configuration to run, validated completely, including what this build can run
     * ({@code available}): everything {@code run} can refuse is refused here, before anything
     * binds a port, opens the journal or touches the kernel.
     */
    static Resolved resolve(Optional<Path> configFile, ConfigFlags flags, Optional<String> hostnameOverride, Availability available)
            throws Refused {
        List<String> warnings = new ArrayList<>();
        ProxyConfig config;
        List<ConfigFlags.Setting> given = flags.given();
        if (configFile.isPresent()) {
            try {
                config = ConfigLoader.load(configFile.get(), available);
            } catch (ConfigException e) {
                throw new Refused(e.getMessage());
            }
            given.stream().map(ConfigFlags.Setting::flag).distinct()
                    .forEach(f -> warnings.add("flag " + f + " is ignored because --config is given"));
        } else {
            config = fromFlags(given, available);
        }
        Optional<String> flag = hostnameOverride.map(s -> s.strip().toLowerCase(Locale.ROOT)).filter(s -> !s.isEmpty());
        if (flag.isPresent()) {
            // Upstream's processHostnameOverrideFlag (cmd/kube-proxy/app/options.go) writes the flag
            // into the configuration, so --write-config-to and ConfigRecorded carry it too.
            config = withHostnameOverride(config, flag.get(), available);
        }
        String name = config.hostnameOverride();
        if (name.isBlank()) {
            name = hostname();
        }
        name = name.strip().toLowerCase(Locale.ROOT);
        try {
            return new Resolved(config, new NodeName(name), List.copyOf(warnings));
        } catch (InvalidValueException e) {
            String shown = name.length() > 120 ? name.substring(0, 120) + "..." : name;
            throw new Refused("node name \"" + shown + "\" (--hostname-override, hostnameOverride or the host name): " + e.reason());
        }
    }

    /**
     * What the agent will read or create, checked before it binds a port or opens the journal:
     * the named kubeconfig (without one the agent uses in-cluster settings, as upstream, and reads
     * no kubeconfig) must be a regular file within {@link TextLimits#KUBECONFIG_MAX_BYTES} (a FIFO
     * would block the client, {@code /dev/zero} would fill the heap); the journal directory, if it
     * exists, must be a directory; {@code --master} must be an http or https URL with a host.
     */
    static void preflight(Resolved resolved, Optional<String> master) throws Refused {
        String kubeconfig = resolved.config().clientConnection().kubeconfig();
        if (!kubeconfig.isEmpty()) {
            try {
                TextFiles.requireRegularFile(Path.of(kubeconfig), TextLimits.KUBECONFIG_MAX_BYTES);
            } catch (ConfigException e) {
                throw new Refused("clientConnection.kubeconfig: " + e.getMessage());
            }
        }
        Path journal = Path.of(resolved.config().kproxy().journalDir());
        if (Files.exists(journal) && !Files.isDirectory(journal)) {
            throw new Refused("kproxy.journalDir: " + journal + " exists and is not a directory");
        }
        if (master.isPresent()) {
            masterUrl(master.get());
        }
    }

    /** fabric8 takes a URL without a scheme as https (its {@code Config.setMasterUrl}); anything else must parse with a host. */
    private static void masterUrl(String master) throws Refused {
        String url = master.contains("://") ? master : "https://" + master;
        try {
            URI uri = new URI(url);
            if (uri.getHost() == null || uri.getScheme() == null || !(uri.getScheme().equals("https") || uri.getScheme().equals("http"))) {
                throw new URISyntaxException(url, "not an http or https URL with a host");
            }
        } catch (URISyntaxException e) {
            String shown = master.length() > 120 ? master.substring(0, 120) + "..." : master;
            throw new Refused("--master \"" + shown + "\": must be the API server's http or https URL (" + e.getReason() + ")");
        }
    }

    /** {@code config} with the flag's name written in, validated again (the flag obeys the field's rules). */
    private static ProxyConfig withHostnameOverride(ProxyConfig config, String name, Availability available) throws Refused {
        try {
            return Validator.requireValid(ConfigTrees.fromTree(ConfigTrees.toTree(config).with("hostnameOverride", Json.of(name))), available);
        } catch (ConfigException e) {
            throw new Refused(e.getMessage());
        }
    }

    private static ProxyConfig fromFlags(List<ConfigFlags.Setting> given, Availability available) throws Refused {
        Json.Obj tree = ConfigTrees.toTree(ConfigTrees.defaults());
        for (ConfigFlags.Setting s : given) {
            tree = set(tree, s.path(), s.value());
        }
        try {
            return Validator.requireValid(ConfigTrees.fromTree(tree), available);
        } catch (ConfigException e) {
            StringBuilder sb = new StringBuilder("invalid flags (" + e.errors().size() + (e.errors().size() == 1 ? " error)" : " errors)"));
            for (FieldError f : e.errors()) {
                sb.append("\n  ").append(flagOf(given, f.path()).map(flag -> flag + " (" + f + ")").orElse(f.toString()));
            }
            throw new Refused(sb.toString());
        }
    }

    private static Optional<String> flagOf(List<ConfigFlags.Setting> given, String path) {
        return given.stream().filter(s -> path.equals(String.join(".", s.path())) || path.startsWith(String.join(".", s.path()) + "[")
                || path.startsWith(String.join(".", s.path()) + ".")).map(ConfigFlags.Setting::flag).findFirst();
    }

    private static Json.Obj set(Json.Obj tree, List<String> path, Json value) {
        String key = path.getFirst();
        if (path.size() == 1) {
            return tree.with(key, value);
        }
        return tree.with(key, set(tree.object(key), path.subList(1, path.size()), value));
    }

    /** The kernel's host name ({@code os.Hostname()}), or {@code HOSTNAME}, or "". */
    private static String hostname() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            return Optional.ofNullable(System.getenv("HOSTNAME")).orElse("");
        }
    }
}
