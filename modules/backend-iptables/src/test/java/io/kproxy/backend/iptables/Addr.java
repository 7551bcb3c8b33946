package io.kproxy.backend.iptables;

import io.kproxy.model.IpFamily;

/** The test topology's addresses for one family (see io.kproxy.testkit.netns.Topology). */
record Addr(IpFamily family) {

    boolean v6() {
        return family == IpFamily.IPV6;
    }

    String cip(int n) {
        return v6() ? "fd00:30::" + n : "172.30.0." + n;
    }

    String ext(int n) {
        return v6() ? "fd00:99::" + n : "192.168.99." + n;
    }

    String lb(int n) {
        return v6() ? "fd00:51::" + n : "198.51.100." + n;
    }

    String pod(int n) {
        return v6() ? "fd00:10:0:1::" + (10 + n) : "10.0.1." + (10 + n);
    }

    String rpod() {
        return v6() ? "fd00:10:0:2::11" : "10.0.2.11";
    }

    String node() {
        return v6() ? "fd00:192::2" : "192.168.0.2";
    }

    String nodeUplink() {
        return v6() ? "fd00:203::1" : "203.0.113.1";
    }

    String bridge() {
        return v6() ? "fd00:10:0:1::1" : "10.0.1.1";
    }

    String client() {
        return v6() ? "fd00:203::2" : "203.0.113.2";
    }

    String blocked() {
        return v6() ? "fd00:203::82" : "203.0.113.130";
    }

    String allowedRange() {
        return v6() ? "fd00:203::/121" : "203.0.113.0/25";
    }

    String loopback() {
        return v6() ? "::1" : "127.0.0.1";
    }

    /** Canonical text of a role's own address, as an echo server reports it. */
    String of(String role) {
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
