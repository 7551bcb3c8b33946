package io.kproxy.config.loader;

import io.kproxy.config.Availability;
import io.kproxy.config.ConfigException;
import io.kproxy.config.ConfigTrees;
import io.kproxy.config.ProxyConfig;
import java.nio.file.Path;

/**
 * Loads the proxy's configuration from a file or text: parse ({@link ConfigText}, within
 * {@link TextLimits#CONFIG}) → default → bind (strict, all errors at once) → validate, the last
 * three by the configuration core ({@link ConfigTrees#bind}).
 *
 * <p>Stateless and thread-safe. {@link #load(Path)} blocks on file I/O; the other methods are pure.
 */
public final class ConfigLoader {

    private ConfigLoader() {
    }

    /**
     * Loads a {@code KubeProxyConfiguration} YAML or JSON file: a regular file of at most
     * {@link TextLimits#CONFIG} bytes ({@link TextFiles}).
     *
     * @throws ConfigException when the file is not a regular file, is too large, cannot be read,
     *                         cannot be parsed, or holds refused values; the message names the
     *                         file and lists every error
     */
    public static ProxyConfig load(Path file) {
        return load(file, Availability.EVERYTHING);
    }

    /** As {@link #load(Path)}, also refusing a mode or event log that {@code available} does not have. */
    public static ProxyConfig load(Path file, Availability available) {
        String text = TextFiles.read(file, TextLimits.CONFIG.maxFileBytes());
        try {
            return load(text, available);
        } catch (ConfigException e) {
            throw e.from(file.toString());
        }
    }

    /**
     * Loads a {@code KubeProxyConfiguration} ({@code kubeproxy.config.k8s.io/v1alpha1} or
     * {@code v1alpha2}) from YAML or JSON text.
     *
     * @throws ConfigException on a syntax error or refused values (all of them listed)
     */
    public static ProxyConfig load(String text) {
        return load(text, Availability.EVERYTHING);
    }

    /** As {@link #load(String)}, also refusing a mode or event log that {@code available} does not have. */
    public static ProxyConfig load(String text, Availability available) {
        return ConfigTrees.bind(ConfigText.parse(text, TextLimits.CONFIG), available);
    }
}
