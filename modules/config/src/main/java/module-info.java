/**
 * The proxy's configuration: {@code KubeProxyConfiguration} records with upstream's
 * {@code kubeproxy.config.k8s.io/v1alpha1} field names and defaults plus kproxy's own section, read
 * from v1alpha1 or v1alpha2 documents; strict loading from
 * YAML or JSON, defaulting and validation as separate steps; and the YAML/JSON text to
 * {@link io.kproxy.model.Json} reader other modules use for Kubernetes objects.
 */
module io.kproxy.config {
    requires transitive io.kproxy.model;
    requires com.fasterxml.jackson.core;
    requires com.fasterxml.jackson.dataformat.yaml;
    // For the YAML reader (LoaderOptions, ParserImpl, a linear StreamReader: docs/operations.md, "Input limits");
    // jackson-dataformat-yaml needs it at run time anyway.
    requires org.yaml.snakeyaml;

    exports io.kproxy.config;
}
