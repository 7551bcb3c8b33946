package io.kproxy.app.node;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The port through which the node settings read and write the kernel's files: {@link #host()} on
 * a node, {@link #under(Path)} a directory laid out like {@code /} (tests point it at a temporary
 * directory for the machine-wide knobs, which a test must never write for real).
 *
 * <p>A per-network-namespace sysctl is read and written in the namespace of the calling thread
 * (the kernel picks {@code /proc/sys/net} by the current task), so a caller that has entered
 * another namespace with {@code setns(2)} tunes that namespace. Implementations are stateless and
 * thread-safe; every call blocks on file I/O.
 */
public interface Sysctls {

    /** The machine this process runs on. */
    static Sysctls host() {
        return under(Path.of("/"));
    }

    /** The files under {@code root} instead of {@code /}. */
    static Sysctls under(Path root) {
        return new RootedSysctls(root);
    }

    /** The knob's integer value; fails when the file is missing or does not hold an integer. */
    long read(Knob knob) throws IOException;

    /** Writes {@code value} (decimal, no newline, as upstream's sysctl helper). */
    void write(Knob knob, long value) throws IOException;

    /**
     * Whether the file's mode lets its owner write it. The kernel registers
     * {@code nf_conntrack_max} with mode 0444 in every network namespace but the initial one
     * (net/netfilter/nf_conntrack_standalone.c: non-initial namespaces may not alter global
     * sysctls), so this answers "is this the initial network namespace" from the kernel itself.
     * The mode bits are read, not access(2): root passes access(2) on a read-only ordinary file.
     */
    boolean ownerWritable(Knob knob) throws IOException;

    /**
     * Whether the first {@code sysfs} mount in {@code /proc/mounts} is mounted {@code rw}
     * (upstream's isSysFSWritable in cmd/kube-proxy/app/conntrack.go up to v1.29; docker mounted
     * it read-only in some versions, moby/moby#24000). Fails when no sysfs is mounted.
     */
    boolean sysfsWritable() throws IOException;

    /**
     * The machine's online CPUs ({@code /sys/devices/system/cpu/online}), not the process's
     * cpuset or quota: nf_conntrack_max is machine-wide, so upstream sizes it by the node's CPU
     * count (pkg/proxy/conntrack/sysctls.go DetectNumCPU, kubernetes/kubernetes#99225). Falls
     * back to the JVM's count when the file cannot be read.
     */
    int onlineCpus();
}
