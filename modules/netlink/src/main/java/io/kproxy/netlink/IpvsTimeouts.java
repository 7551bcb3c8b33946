package io.kproxy.netlink;

/**
 * IPVS connection timeouts in seconds ({@code ipvsadm --set tcp tcpfin udp}); 0 leaves a value
 * unchanged when set, and kube-proxy's {@code ipvs.tcpTimeout}, {@code tcpFinTimeout},
 * {@code udpTimeout} map to them.
 */
public record IpvsTimeouts(int tcpSeconds, int tcpFinSeconds, int udpSeconds) {
    public IpvsTimeouts {
        if (tcpSeconds < 0 || tcpFinSeconds < 0 || udpSeconds < 0) {
            throw new IllegalArgumentException("negative IPVS timeout");
        }
    }
}
