package io.kproxy.config;

import java.util.Objects;

/**
 * {@code clientConnection}: component-base's {@code ClientConnectionConfiguration}. Immutable; no
 * null components ({@code ""} means unset).
 *
 * @param kubeconfig         path of the kubeconfig file; {@code ""} means in-cluster
 * @param acceptContentTypes the client's Accept header; {@code ""} means the client's default
 * @param contentType        content type of requests (default {@code application/vnd.kubernetes.protobuf})
 * @param qps                client-side rate limit (default 5)
 * @param burst              client-side burst (default 10)
 */
public record ClientConnectionConfig(String kubeconfig, String acceptContentTypes, String contentType, float qps, int burst) {

    public ClientConnectionConfig {
        Objects.requireNonNull(kubeconfig, "kubeconfig");
        Objects.requireNonNull(acceptContentTypes, "acceptContentTypes");
        Objects.requireNonNull(contentType, "contentType");
    }
}
