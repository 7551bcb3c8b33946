package io.kproxy.app.node;

import io.kproxy.config.ConntrackConfig;
import java.io.IOException;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The {@code conntrack} section applied to the kernel at start, as upstream's
 * {@code pkg/proxy/conntrack/sysctls.go} (setSysctls; before v1.30 {@code setupConntrack} in
 * {@code cmd/kube-proxy/app/server_linux.go} with {@code cmd/kube-proxy/app/conntrack.go}), in
 * upstream's order:
 *
 * <ol>
 *   <li>{@code nf_conntrack_max} = maxPerCore × the node's online CPUs, at least {@code min},
 *       capped at 1,048,576 (the cap is current master's; earlier versions had none). Raised
 *       only: a kernel value already as high is kept (master; up to v1.29 any different value
 *       was overwritten). Then {@code hashsize}, raised to a quarter of that when smaller.</li>
 *   <li>{@code nf_conntrack_tcp_timeout_established}, {@code _close_wait}, {@code tcp_be_liberal}
 *       (only ever set to 1), {@code udp_timeout}, {@code udp_timeout_stream}: written when the
 *       kernel's value differs.</li>
 * </ol>
 *
 * <p>A zero count or duration (or {@code tcpBeLiberal: false}) leaves the kernel's value alone,
 * as upstream. Where it may not write, it says why and goes on: outside the initial network
 * namespace the kernel keeps {@code nf_conntrack_max} and {@code hashsize} for the host's (mode
 * 0444, and {@code -EOPNOTSUPP} for hashsize; upstream then fails to start, which is why kind
 * sets {@code maxPerCore: 0}); a read-only {@code /sys} gets upstream's (v1.29 and before)
 * message about the container runtime. Any other failure stops the start, as upstream's
 * {@code platformSetup}: "could not set conntrack parameters". Stateless.
 */
public final class ConntrackSettings {

    /** Upstream's cap on the scaled maximum (pkg/proxy/conntrack/sysctls.go, getConntrackMax). */
    public static final long MAX_LIMIT = 1_048_576;

    /** Upstream's text for a read-only /sys (cmd/kube-proxy/app/server_linux.go, up to v1.29; it sent it as a node Event). */
    public static final String READ_ONLY_SYSFS = "CRI error: /sys is read-only: cannot modify conntrack limits, problems may arise later "
            + "(If running Docker, see docker issue #24000)";

    static final String NOT_INITIAL_NAMESPACE = "not the initial network namespace: the kernel takes this only from the host's "
            + "(upstream fails to start here; set conntrack.maxPerCore to 0 to leave it to the node)";

    private ConntrackSettings() {
    }

    /**
     * Upstream's getConntrackMax: 0 (leave the kernel's value) when {@code maxPerCore} is not
     * positive; else {@code maxPerCore × cpus} capped at {@link #MAX_LIMIT}, or {@code min} when
     * that is larger than the uncapped product. Pure.
     */
    public static long conntrackMax(int maxPerCore, int min, int cpus) {
        if (maxPerCore <= 0) {
            return 0;
        }
        long scaled = (long) maxPerCore * cpus;
        if (scaled > MAX_LIMIT) {
            return MAX_LIMIT;
        }
        return Math.max(scaled, min);
    }

    /**
     * Applies {@code config} through {@code sys}, reporting each knob's outcome to {@code report}
     * as it is decided (so what was applied before a failure is reported too).
     *
     * @throws IOException when a knob that should be set cannot be read or written, for a reason
     *     other than the known refusals; the message names the knob and the field that turns it off
     */
    public static void apply(ConntrackConfig config, Sysctls sys, Consumer<Setting> report) throws IOException {
        long max = conntrackMax(config.maxPerCore(), config.min(), sys.onlineCpus());
        if (max == 0) {
            String why = "conntrack.maxPerCore is 0: the kernel's value stays";
            report.accept(new Setting.Skipped(Knob.NF_CONNTRACK_MAX, why));
            report.accept(new Setting.Skipped(Knob.CONNTRACK_HASHSIZE, why));
        } else {
            report.accept(raiseMax(max, sys));
            report.accept(raiseHashsize(max / 4, sys));
        }
        report.accept(timeout(Knob.TCP_TIMEOUT_ESTABLISHED, "tcpEstablishedTimeout", config.tcpEstablishedTimeout(), sys));
        report.accept(timeout(Knob.TCP_TIMEOUT_CLOSE_WAIT, "tcpCloseWaitTimeout", config.tcpCloseWaitTimeout(), sys));
        report.accept(config.tcpBeLiberal() ? set(Knob.TCP_BE_LIBERAL, "tcpBeLiberal", 1, sys)
                : new Setting.Skipped(Knob.TCP_BE_LIBERAL, "conntrack.tcpBeLiberal is false: the kernel's value stays"));
        report.accept(timeout(Knob.UDP_TIMEOUT, "udpTimeout", config.udpTimeout(), sys));
        report.accept(timeout(Knob.UDP_TIMEOUT_STREAM, "udpStreamTimeout", config.udpStreamTimeout(), sys));
    }

    private static Setting raiseMax(long max, Sysctls sys) throws IOException {
        Knob k = Knob.NF_CONNTRACK_MAX;
        try {
            long current = sys.read(k);
            if (current >= max) {
                return new Setting.Kept(k, current, max, "the kernel's value is at least the wanted one; it is never lowered");
            }
            if (!sys.ownerWritable(k)) {
                return new Setting.Refused(k, current, max, NOT_INITIAL_NAMESPACE);
            }
            sys.write(k, max);
            return new Setting.Applied(k, current, max);
        } catch (IOException e) {
            throw failed(k, "maxPerCore", e);
        }
    }

    private static Setting raiseHashsize(long wanted, Sysctls sys) throws IOException {
        Knob k = Knob.CONNTRACK_HASHSIZE;
        try {
            long current = sys.read(k);
            if (current >= wanted) {
                return new Setting.Kept(k, current, wanted, "the kernel's value is at least a quarter of nf_conntrack_max; it is never lowered");
            }
            // The kernel refuses hashsize outside the initial namespace (nf_conntrack_set_hashsize:
            // -EOPNOTSUPP); nf_conntrack_max's mode says which namespace this is.
            if (!sys.ownerWritable(Knob.NF_CONNTRACK_MAX)) {
                return new Setting.Refused(k, current, wanted, NOT_INITIAL_NAMESPACE);
            }
            if (!sys.sysfsWritable()) {
                return new Setting.Refused(k, current, wanted, READ_ONLY_SYSFS);
            }
            sys.write(k, wanted);
            return new Setting.Applied(k, current, wanted);
        } catch (IOException e) {
            throw failed(k, "maxPerCore", e);
        }
    }

    private static Setting timeout(Knob k, String field, Duration d, Sysctls sys) throws IOException {
        if (d.isZero() || d.isNegative()) {
            return new Setting.Skipped(k, "conntrack." + field + " is 0: the kernel's value stays");
        }
        long seconds = d.toSeconds();
        if (seconds == 0) {
            // Upstream truncates to whole seconds and would write 0: every entry would expire at once.
            return new Setting.Skipped(k, "conntrack." + field + " is under one second (" + d + "), which the kernel would take as 0: the kernel's value stays");
        }
        return set(k, field, seconds, sys);
    }

    private static Setting set(Knob k, String field, long value, Sysctls sys) throws IOException {
        try {
            long current = sys.read(k);
            if (current == value) {
                return new Setting.Kept(k, current, value, "already the configured value");
            }
            sys.write(k, value);
            return new Setting.Applied(k, current, value);
        } catch (IOException e) {
            throw failed(k, field, e);
        }
    }

    private static IOException failed(Knob k, String field, IOException e) {
        return new IOException("could not set conntrack parameters from the configuration: " + k.displayName() + ": " + describe(e)
                + "; to leave it to the node, set conntrack." + field + (field.equals("tcpBeLiberal") ? " to false" : " to 0"), e);
    }

    /** The exception's class and message (the JDK's file exceptions carry the path as the message). */
    static String describe(Exception e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }
}
