package io.kproxy.app;

import io.kproxy.config.ConfigException;
import io.kproxy.config.ConfigLoader;
import io.kproxy.config.FieldError;
import io.kproxy.config.ProxyConfig;
import io.kproxy.config.Validator;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import java.io.IOException;
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

    static Resolved resolve(Optional<Path> configFile, ConfigFlags flags, Optional<String> hostnameOverride) throws Refused {
        List<String> warnings = new ArrayList<>();
        ProxyConfig config;
        List<ConfigFlags.Setting> given = flags.given();
        if (configFile.isPresent()) {
            try {
                config = ConfigLoader.load(configFile.get());
            } catch (ConfigException e) {
                throw new Refused(e.getMessage());
            }
            given.stream().map(ConfigFlags.Setting::flag).distinct()
                    .forEach(f -> warnings.add("flag " + f + " is ignored because --config is given"));
        } else {
            config = fromFlags(given);
        }
        Optional<String> flag = hostnameOverride.map(s -> s.strip().toLowerCase(Locale.ROOT)).filter(s -> !s.isEmpty());
        if (flag.isPresent()) {
            // Upstream's processHostnameOverrideFlag (cmd/kube-proxy/app/options.go) writes the flag
            // into the configuration, so --write-config-to and ConfigRecorded carry it too.
            config = withHostnameOverride(config, flag.get());
        }
        String name = config.hostnameOverride();
        if (name.isBlank()) {
            name = hostname();
        }
        name = name.strip().toLowerCase(Locale.ROOT);
        try {
            return new Resolved(config, new NodeName(name), List.copyOf(warnings));
        } catch (InvalidValueException e) {
            throw new Refused("node name \"" + name + "\" (--hostname-override, hostnameOverride or the host name): " + e.reason());
        }
    }

    private static ProxyConfig withHostnameOverride(ProxyConfig config, String name) throws Refused {
        try {
            return ConfigLoader.fromTree(ConfigLoader.toTree(config).with("hostnameOverride", Json.of(name)));
        } catch (ConfigException e) {
            throw new Refused(e.getMessage());
        }
    }

    private static ProxyConfig fromFlags(List<ConfigFlags.Setting> given) throws Refused {
        Json.Obj tree = ConfigLoader.toTree(ConfigLoader.defaults());
        for (ConfigFlags.Setting s : given) {
            tree = set(tree, s.path(), s.value());
        }
        try {
            return Validator.requireValid(ConfigLoader.fromTree(tree));
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
