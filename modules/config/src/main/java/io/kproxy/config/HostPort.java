package io.kproxy.config;

import io.kproxy.model.InvalidValueException;
import io.kproxy.model.IpAddress;
import java.util.Optional;

/**
 * {@code host:port} text as Go's {@code net.SplitHostPort} reads it (IPv6 hosts in brackets), and
 * upstream's {@code proxyutil.AppendPortIfNeeded} ({@code pkg/proxy/util/utils.go}).
 */
record HostPort(String host, String port) {

    /** Splits like Go's {@code net.SplitHostPort}; empty when Go would return an error. */
    static Optional<HostPort> split(String hostport) {
        int i = hostport.lastIndexOf(':');
        if (i < 0) {
            return Optional.empty();
        }
        String host;
        int j = 0;
        int k = 0;
        if (hostport.charAt(0) == '[') {
            int end = hostport.indexOf(']');
            if (end < 0 || end + 1 != i) {
                return Optional.empty();
            }
            host = hostport.substring(1, end);
            j = 1;
            k = end + 1;
        } else {
            host = hostport.substring(0, i);
            if (host.indexOf(':') >= 0) {
                return Optional.empty();
            }
        }
        if (hostport.indexOf('[', j) >= 0 || hostport.indexOf(']', k) >= 0) {
            return Optional.empty();
        }
        return Optional.of(new HostPort(host, hostport.substring(i + 1)));
    }

    /** {@code addr} unchanged when it already has a port or is not an IP; otherwise {@code ip:port} / {@code [ip]:port}. */
    static String appendPortIfNeeded(String addr, int port) {
        if (split(addr).isPresent()) {
            return addr;
        }
        Optional<IpAddress> ip = ip(addr);
        if (ip.isEmpty()) {
            return addr;
        }
        return ip.get().isIpv4() ? addr + ":" + port : "[" + addr + "]:" + port;
    }

    /** The address {@code text} parses to sloppily ({@code netutils.ParseIPSloppy}), if any. */
    static Optional<IpAddress> ip(String text) {
        try {
            return Optional.of(IpAddress.parse(text));
        } catch (InvalidValueException e) {
            return Optional.empty();
        }
    }
}
