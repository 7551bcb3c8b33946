/**
 * The configuration loader: YAML or JSON text to {@link io.kproxy.model.Json} trees (Jackson and
 * SnakeYAML, within the input limits of docs/operations.md, "Input limits": sizes, depth, aliases
 * refused, code points checked), the bounded reading of files, and {@code --config} files loaded
 * through the configuration core ({@link io.kproxy.config.ConfigTrees}). Also the reader other
 * modules use for files of Kubernetes objects and for the admin protocol's lines.
 */
module io.kproxy.config.loader {
    requires transitive io.kproxy.config;
    requires com.fasterxml.jackson.core;
    requires com.fasterxml.jackson.dataformat.yaml;
    // For the YAML reader (LoaderOptions, ParserImpl, a linear StreamReader: docs/operations.md, "Input limits");
    // jackson-dataformat-yaml needs it at run time anyway.
    requires org.yaml.snakeyaml;

    exports io.kproxy.config.loader;
}
