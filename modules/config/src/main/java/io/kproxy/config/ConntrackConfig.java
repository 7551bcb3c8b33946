package io.kproxy.config;

import java.time.Duration;

/**
 * {@code conntrack}: upstream's {@code KubeProxyConntrackConfiguration}. A zero duration or count
 * means "leave the kernel's value as it is".
 */
public record ConntrackConfig(int maxPerCore, int min, Duration tcpEstablishedTimeout, Duration tcpCloseWaitTimeout, boolean tcpBeLiberal,
        Duration udpTimeout, Duration udpStreamTimeout) {
}
