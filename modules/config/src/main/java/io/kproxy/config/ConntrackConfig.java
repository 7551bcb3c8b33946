package io.kproxy.config;

import java.time.Duration;
import java.util.Objects;

/**
 * {@code conntrack}: upstream's {@code KubeProxyConntrackConfiguration}. A zero duration or count
 * means "leave the kernel's value as it is" ({@code cmd/kube-proxy/app/server_linux.go}
 * setupConntrack). Immutable; no null components.
 */
public record ConntrackConfig(int maxPerCore, int min, Duration tcpEstablishedTimeout, Duration tcpCloseWaitTimeout, boolean tcpBeLiberal,
        Duration udpTimeout, Duration udpStreamTimeout) {

    public ConntrackConfig {
        Objects.requireNonNull(tcpEstablishedTimeout, "tcpEstablishedTimeout");
        Objects.requireNonNull(tcpCloseWaitTimeout, "tcpCloseWaitTimeout");
        Objects.requireNonNull(udpTimeout, "udpTimeout");
        Objects.requireNonNull(udpStreamTimeout, "udpStreamTimeout");
    }
}
