package io.kproxy.app.node;

/**
 * The node's kernel files kproxy may write at start, as upstream kube-proxy does
 * ({@code pkg/proxy/conntrack/sysctls.go}, formerly {@code cmd/kube-proxy/app/conntrack.go}, and
 * {@code pkg/util/oom/oom_linux.go}), each with the path under the root directory ({@code /} on a
 * node) and its scope: the ones scoped {@link Scope#HOST} belong to the whole machine and the
 * kernel takes them only from the initial network namespace; {@link Scope#NETWORK_NAMESPACE} ones
 * belong to the namespace the writing thread is in; {@link Scope#PROCESS} to this process.
 */
public enum Knob {
    NF_CONNTRACK_MAX("proc/sys/net/netfilter/nf_conntrack_max", "net.netfilter.nf_conntrack_max", Scope.HOST),
    /** Written as {@code nf_conntrack_max / 4} when smaller; the kernel refuses it outside the initial namespace. */
    CONNTRACK_HASHSIZE("sys/module/nf_conntrack/parameters/hashsize", "/sys/module/nf_conntrack/parameters/hashsize", Scope.HOST),
    TCP_TIMEOUT_ESTABLISHED("proc/sys/net/netfilter/nf_conntrack_tcp_timeout_established",
            "net.netfilter.nf_conntrack_tcp_timeout_established", Scope.NETWORK_NAMESPACE),
    TCP_TIMEOUT_CLOSE_WAIT("proc/sys/net/netfilter/nf_conntrack_tcp_timeout_close_wait",
            "net.netfilter.nf_conntrack_tcp_timeout_close_wait", Scope.NETWORK_NAMESPACE),
    TCP_BE_LIBERAL("proc/sys/net/netfilter/nf_conntrack_tcp_be_liberal", "net.netfilter.nf_conntrack_tcp_be_liberal",
            Scope.NETWORK_NAMESPACE),
    UDP_TIMEOUT("proc/sys/net/netfilter/nf_conntrack_udp_timeout", "net.netfilter.nf_conntrack_udp_timeout", Scope.NETWORK_NAMESPACE),
    UDP_TIMEOUT_STREAM("proc/sys/net/netfilter/nf_conntrack_udp_timeout_stream", "net.netfilter.nf_conntrack_udp_timeout_stream",
            Scope.NETWORK_NAMESPACE),
    OOM_SCORE_ADJ("proc/self/oom_score_adj", "/proc/self/oom_score_adj", Scope.PROCESS);

    /** Whose value a knob is. */
    public enum Scope {
        HOST, NETWORK_NAMESPACE, PROCESS
    }

    private final String relativePath;
    private final String displayName;
    private final Scope scope;

    Knob(String relativePath, String displayName, Scope scope) {
        this.relativePath = relativePath;
        this.displayName = displayName;
        this.scope = scope;
    }

    /** The file under the root directory, without a leading slash. */
    public String relativePath() {
        return relativePath;
    }

    /** The name an operator knows: the sysctl's dotted name, or the file's absolute path. */
    public String displayName() {
        return displayName;
    }

    public Scope scope() {
        return scope;
    }
}
