package io.kproxy.config;

import io.kproxy.model.Json;
import java.util.List;
import java.util.Optional;

/**
 * The configuration as {@link Json} trees, the one place a {@code KubeProxyConfiguration} tree is
 * read: a document (already parsed from YAML or JSON by the loader module) defaulted, bound and
 * validated ({@link #bind}); the reverse ({@link #toTree}), which the agent records in its
 * {@code ConfigRecorded} event and {@code --write-config-to} writes; a tree written by
 * {@link #toTree} bound back exactly ({@link #fromTree}); and a recorded tree read by the fold,
 * which must never stop on a bad value ({@link #readRecorded}). The document's {@code apiVersion}
 * chooses the defaults and the binder: {@code v1alpha1} ({@link Defaults}, {@link Binder}) or
 * {@code v1alpha2} ({@link V1alpha2Defaults}, {@link V1alpha2Binder}, which converts into the same
 * {@link ProxyConfig}; its validation errors carry v1alpha2 paths).
 *
 * <p>Stateless, thread-safe, no I/O.
 */
public final class ConfigTrees {

    private ConfigTrees() {
    }

    /**
     * A parsed {@code KubeProxyConfiguration} document ({@code v1alpha1} or {@code v1alpha2})
     * defaulted, bound strictly (all errors at once) and validated, refusing a mode or event log
     * that {@code available} does not have.
     *
     * @throws ConfigException listing every refused field
     */
    public static ProxyConfig bind(Json doc, Availability available) {
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
     * Binds a tree written by either {@link #toTree}. Strict like {@link #bind}, but neither
     * defaulted nor validated: a configuration is reproduced exactly as it was written.
     *
     * @throws ConfigException when the tree has unknown fields or values of the wrong type
     */
    public static ProxyConfig fromTree(Json.Obj tree) {
        return isV1alpha2(tree) ? V1alpha2Binder.bind(tree) : Binder.bind(tree);
    }

    /**
     * Reads the tree of a {@code ConfigRecorded} event leniently, as the fold must: defaulted like
     * {@link #bind} (a partial tree, or an empty one, reads as the defaults), then bound with
     * every refused value (a wrong JSON type, an unknown enum spelling, a malformed duration)
     * reported and replaced by its default, never thrown. Fields this version does not know are
     * skipped silently (a journal recorded by a later version still replays), and so are
     * {@code apiVersion} and {@code kind}, except that {@code v1alpha2} chooses that version's
     * defaults and conversion. Not validated: the agent validated it before recording it, and the
     * fold interprets the values it reads itself.
     */
    public static RecordedConfig readRecorded(Json.Obj recorded) {
        return RecordedConfig.read(recorded);
    }

    static boolean isV1alpha2(Json doc) {
        return doc instanceof Json.Obj o && o.fields().get("apiVersion") instanceof Json.Str(String v)
                && ConfigVersion.of(v).equals(Optional.of(ConfigVersion.V1ALPHA2));
    }
}
