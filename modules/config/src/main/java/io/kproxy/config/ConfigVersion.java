package io.kproxy.config;

import java.util.Optional;

/**
 * The {@code apiVersion}s of {@code KubeProxyConfiguration} that kproxy reads. Closed set.
 *
 * <p>{@code v1alpha1} is the version every released kube-proxy reads and writes
 * ({@code staging/src/k8s.io/kube-proxy/config/v1alpha1/types.go}; {@code --write-config-to}
 * encodes to it in {@code cmd/kube-proxy/app/options.go}). {@code v1alpha2} is the shape of
 * KEP-784's draft (kubernetes/kubernetes PR #121830 and its successor:
 * {@code pkg/proxy/apis/config/v1alpha2/defaults.go}, {@code cmd/kube-proxy/app/server_test.go}
 * {@code TestLoadConfigV1Alpha2}); no kube-proxy release registers it yet, so its fields may still
 * change upstream. docs/operations.md, "Configuration versions", lists both.
 */
public enum ConfigVersion {
    V1ALPHA1("kubeproxy.config.k8s.io/v1alpha1"),
    V1ALPHA2("kubeproxy.config.k8s.io/v1alpha2");

    /** Both, for messages: {@code kubeproxy.config.k8s.io/v1alpha1 or kubeproxy.config.k8s.io/v1alpha2}. */
    public static final String ACCEPTED = V1ALPHA1.apiVersion + " or " + V1ALPHA2.apiVersion;

    private final String apiVersion;

    ConfigVersion(String apiVersion) {
        this.apiVersion = apiVersion;
    }

    /** The {@code apiVersion} text, e.g. {@code kubeproxy.config.k8s.io/v1alpha2}. */
    public String apiVersion() {
        return apiVersion;
    }

    /** The version named by an {@code apiVersion} exactly as written; empty for any other text. */
    public static Optional<ConfigVersion> of(String apiVersion) {
        for (ConfigVersion v : values()) {
            if (v.apiVersion.equals(apiVersion)) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }
}
