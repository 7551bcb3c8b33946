package io.kproxy.config;

import io.kproxy.model.Cidr;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The health and metrics servers' addresses between v1alpha2's form (a list of CIDRs and a port:
 * {@code healthzBindAddresses}/{@code healthzBindPort}) and the one {@code IP:port} that kproxy's
 * servers listen on ({@code healthzBindAddress}, v1alpha1's form). Pure and thread-safe.
 *
 * <p>Upstream's draft binds on each node IP inside the CIDRs; kproxy listens on one address, so it
 * accepts the lists that one address serves and refuses the others by name:
 * <ul>
 *   <li>{@code 0.0.0.0/0} → {@code 0.0.0.0}; {@code ::/0}, alone or with {@code 0.0.0.0/0} (the
 *       default) → {@code [::]}, which on Linux also accepts IPv4 ({@code net.ipv6.bindv6only=0});</li>
 *   <li>{@code 127.0.0.0/8}, alone or with {@code ::1/128} (the metrics default) →
 *       {@code 127.0.0.1} ({@code ::1} is then not served: a documented difference);</li>
 *   <li>one address as {@code /32} or {@code /128} → that address.</li>
 * </ul>
 * The other way, as the draft converts v1alpha1 ({@code cmd/kube-proxy/app/server_test.go}
 * TestLoadConfigV1Alpha1): {@code 0.0.0.0} becomes {@code 0.0.0.0/0}, any other address
 * {@code /32} or {@code /128}; {@code [::]} becomes {@code 0.0.0.0/0, ::/0} (the draft writes
 * {@code ::/0}, which is the same socket on Linux).
 */
final class ServerAddresses {

    private static final Cidr LOOPBACK_V4 = Cidr.parse("127.0.0.0/8");
    private static final Cidr LOOPBACK_V6 = Cidr.parse("::1/128");

    private ServerAddresses() {
    }

    /**
     * The {@code IP:port} serving {@code cidrs} on {@code port}; adds to {@code errs} (naming
     * {@code listField} or {@code portField}) and returns {@code ""} when there is none.
     */
    static String toHostPort(List<FieldError> errs, String listField, List<String> cidrs, String portField, int port) {
        if (port < 1 || port > 65535) {
            errs.add(new FieldError(portField, Integer.toString(port), "must be a valid port (1-65535)"));
        }
        List<Cidr> parsed = new ArrayList<>();
        for (int i = 0; i < cidrs.size(); i++) {
            Optional<Cidr> c = Checks.cidr(cidrs.get(i));
            if (c.isEmpty()) {
                errs.add(new FieldError(listField + "[" + i + "]", cidrs.get(i), "must be a valid CIDR (e.g. 10.0.0.0/8 or fd00::/64)"));
            } else {
                parsed.add(c.get());
            }
        }
        if (parsed.size() != cidrs.size()) {
            return "";
        }
        Optional<IpAddress> ip = listenAddress(parsed);
        if (ip.isEmpty()) {
            errs.add(new FieldError(listField, String.join(",", cidrs), "kproxy serves on one address: must be 0.0.0.0/0, ::/0 or both"
                    + " (all addresses), 127.0.0.0/8 with or without ::1/128 (loopback), or one address as /32 or /128"));
            return "";
        }
        return ip.get().isIpv4() ? ip.get() + ":" + port : "[" + ip.get() + "]:" + port;
    }

    private static Optional<IpAddress> listenAddress(List<Cidr> cidrs) {
        if (cidrs.isEmpty()) {
            return Optional.empty();
        }
        if (cidrs.stream().allMatch(Cidr::isZero)) {
            boolean v6 = cidrs.stream().anyMatch(c -> c.family() == IpFamily.IPV6);
            return Optional.of(IpAddress.parse(v6 ? "::" : "0.0.0.0"));
        }
        if (cidrs.contains(LOOPBACK_V4) && cidrs.stream().allMatch(c -> c.equals(LOOPBACK_V4) || c.equals(LOOPBACK_V6))) {
            return Optional.of(IpAddress.parse("127.0.0.1"));
        }
        if (cidrs.size() == 1 && cidrs.getFirst().prefixLength() == (cidrs.getFirst().family() == IpFamily.IPV4 ? 32 : 128)) {
            return Optional.of(cidrs.getFirst().network());
        }
        return Optional.empty();
    }

    /** The v1alpha2 CIDR list for a valid {@code IP:port}. */
    static List<String> toCidrs(String hostPort) {
        IpAddress ip = HostPort.split(hostPort).flatMap(hp -> HostPort.ip(hp.host()))
                .orElseThrow(() -> new IllegalArgumentException("not IP:port: " + hostPort));
        if (ip.isUnspecified()) {
            // [::] accepts IPv4 too on Linux: say so, as v1alpha2's own default does.
            return ip.isIpv4() ? List.of("0.0.0.0/0") : List.of("0.0.0.0/0", "::/0");
        }
        return List.of(ip + "/" + (ip.isIpv4() ? 32 : 128));
    }

    /** The port of a valid {@code IP:port}. */
    static int port(String hostPort) {
        return Integer.parseInt(HostPort.split(hostPort).orElseThrow().port());
    }
}
