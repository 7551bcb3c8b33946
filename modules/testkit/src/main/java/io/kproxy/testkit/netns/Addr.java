package io.kproxy.testkit.netns;

import io.kproxy.model.IpFamily;

/**
 * The {@link Topology}'s addresses for one family, as text, for packet-flow tables. Immutable;
 * never returns null.
 */
public record Addr(IpFamily family) {

    public boolean v6() {
        return family == IpFamily.IPV6;
    }

    public String cip(int n) {
        return v6() ? "fd00:30::" + n : "172.30.0." + n;
    }

    public String ext(int n) {
        return v6() ? "fd00:99::" + n : "192.168.99." + n;
    }

    public String lb(int n) {
        return v6() ? "fd00:51::" + n : "198.51.100." + n;
    }

    public String pod(int n) {
        return v6() ? "fd00:10:0:1::" + (10 + n) : "10.0.1." + (10 + n);
    }

    public String rpod() {
        return v6() ? "fd00:10:0:2::11" : "10.0.2.11";
    }

    public String node() {
        return v6() ? "fd00:192::2" : "192.168.0.2";
    }

    public String nodeUplink() {
        return v6() ? "fd00:203::1" : "203.0.113.1";
    }

    public String bridge() {
        return v6() ? "fd00:10:0:1::1" : "10.0.1.1";
    }

    public String client() {
        return v6() ? "fd00:203::2" : "203.0.113.2";
    }

    public String blocked() {
        return v6() ? "fd00:203::82" : "203.0.113.130";
    }

    public String allowedRange() {
        return v6() ? "fd00:203::/121" : "203.0.113.0/25";
    }

    public String loopback() {
        return v6() ? "::1" : "127.0.0.1";
    }

    /** Canonical text of a role's own address, as an echo server reports it. */
    public String of(String role) {
        return switch (role) {
            case "pod1" -> pod(1);
            case "pod2" -> pod(2);
            case "pod3" -> pod(3);
            case "rpod" -> rpod();
            case "ext" -> client();
            default -> throw new IllegalArgumentException(role);
        };
    }
}
