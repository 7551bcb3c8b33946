package io.kproxy.config;

/** {@code clientConnection}: component-base's {@code ClientConnectionConfiguration}. */
public record ClientConnectionConfig(String kubeconfig, String acceptContentTypes, String contentType, float qps, int burst) {
}
