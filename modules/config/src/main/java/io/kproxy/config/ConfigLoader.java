package io.kproxy.config;

import io.kproxy.model.Json;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Loads the proxy's configuration: parse ({@link ConfigText}) → default → bind (strict, all
 * errors at once) → validate ({@link Validator}). The document's {@code apiVersion} chooses the
 * defaults and the binder: {@code v1alpha1} ({@link Defaults}, {@link Binder}) or {@code v1alpha2}
 * ({@link V1alpha2Defaults}, {@link V1alpha2Binder}, which converts into the same
 * {@link ProxyConfig}; its validation errors carry v1alpha2 paths). Also the reverse,
 * {@link #toTree}, which the agent records in its {@code ConfigRecorded} event and
 * {@code --write-config-to} writes, and {@link #fromTree} which reads such a record back.
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
        Json doc = ConfigText.parse(text, TextLimits.CONFIG);
        if (isV1alpha2(doc)) {
            ProxyConfig c = V1alpha2Binder.bind(V1alpha2Defaults.apply((Json.Obj) doc));
            List<FieldError> errs = Validator.validate(c, available).stream().map(e -> VersionFields.toV1alpha2(e, c.mode())).toList();
            if (!errs.isEmpty()) {
                throw new ConfigException(errs);
            }
            return c;
        }
        Json defaulted = doc instanceof Json.Obj o ? Defaults.apply(o) : doc;
        return Validator.requireValid(Binder.bind(defaulted), available);
    }

    /** The configuration in force when no {@code --config} is given: every field at its default. */
    public static ProxyConfig defaults() {
        return Validator.requireValid(Binder.bind(Defaults.apply(
                Json.obj("apiVersion", Json.of(Defaults.API_VERSION), "kind", Json.of(Defaults.KIND)))));
    }

    /**
     * The effective configuration as a {@code KubeProxyConfiguration} tree with upstream's field
     * names: every field, defaults included, durations as Go text. {@link #fromTree} of the result
     * is equal to {@code config}.
     */
    public static Json.Obj toTree(ProxyConfig config) {
        return TreeWriter.write(config);
    }

    /**
     * The effective configuration as a tree of {@code version}: {@link #toTree(ProxyConfig)} for
     * v1alpha1; for v1alpha2 upstream's conversion, which keeps only the sync periods and
     * masquerade-all of the mode in force and drops {@code portRange} ({@link V1alpha2Writer}).
     *
     * @throws ConfigException when {@code version} cannot express {@code config} (v1alpha2 cannot
     *                         disable the health or metrics server)
     */
    public static Json.Obj toTree(ProxyConfig config, ConfigVersion version) {
        return switch (version) {
            case V1ALPHA1 -> TreeWriter.write(config);
            case V1ALPHA2 -> V1alpha2Writer.write(config);
        };
    }

    /**
     * Binds a tree written by either {@link #toTree} (e.g. from a recorded {@code ConfigRecorded} event).
     * Strict like loading, but neither defaulted nor validated: a recorded configuration is
     * reproduced exactly as it was in force, even if a later version's rules are stricter.
     *
     * @throws ConfigException when the tree has unknown fields or values of the wrong type
     */
    public static ProxyConfig fromTree(Json.Obj tree) {
        return isV1alpha2(tree) ? V1alpha2Binder.bind(tree) : Binder.bind(tree);
    }

    private static boolean isV1alpha2(Json doc) {
        return doc instanceof Json.Obj o && o.fields().get("apiVersion") instanceof Json.Str(String v)
                && ConfigVersion.of(v).equals(Optional.of(ConfigVersion.V1ALPHA2));
    }
}
