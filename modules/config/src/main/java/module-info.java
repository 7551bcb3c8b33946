/**
 * The configuration core: {@code KubeProxyConfiguration} records with upstream's
 * {@code kubeproxy.config.k8s.io/v1alpha1} field names and defaults plus kproxy's own section;
 * defaulting, strict binding and validation of v1alpha1 or v1alpha2 {@link io.kproxy.model.Json}
 * trees, the writers back to trees, and the lenient reading of a recorded tree that the fold uses
 * ({@link io.kproxy.config.ConfigTrees}). No text parsing and no I/O: YAML and JSON text is read
 * by {@code io.kproxy.config.loader}.
 */
module io.kproxy.config {
    requires transitive io.kproxy.model;

    exports io.kproxy.config;
}
