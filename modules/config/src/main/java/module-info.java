/**
 * The proxy's configuration: {@code KubeProxyConfiguration} ({@code kubeproxy.config.k8s.io/v1alpha1})
 * records with upstream's field names and defaults plus kproxy's own section; strict loading from
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
