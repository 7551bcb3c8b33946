package io.kproxy.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * {@code ipvs}: upstream's {@code KubeProxyIPVSConfiguration}. Immutable; no null components; a
 * zero timeout keeps the kernel's value; an empty {@code scheduler} means {@code rr}. The
 * components are as written: {@link Validator} checks them (in ipvs mode, as upstream), the
 * fold reads them leniently.
 */
public record IpvsConfig(Duration syncPeriod, Duration minSyncPeriod, String scheduler, List<String> excludeCIDRs, boolean strictARP,
        Duration tcpTimeout, Duration tcpFinTimeout, Duration udpTimeout) {

    /**
     * The schedulers ipvs mode accepts, the one list {@link Validator}, the fold and the ipvs
     * backend check: upstream's {@code validateIPVSSchedulerMethod}
     * ({@code pkg/proxy/apis/config/validation/validation.go}: the kernel's {@code ip_vs_rr},
     * {@code _wrr}, {@code _lc}, {@code _wlc}, {@code _lblc}, {@code _lblcr}, {@code _sh},
     * {@code _dh}, {@code _sed}, {@code _nq}) plus {@code mh} (maglev hashing, {@code ip_vs_mh},
     * whose source-hash flags upstream's ipvs proxier supports). Immutable.
     */
    public static final List<String> SCHEDULERS = List.of("rr", "wrr", "lc", "wlc", "lblc", "lblcr", "sh", "dh", "sed", "nq", "mh");

    /** What a blank {@code scheduler} means (upstream's {@code defaultScheduler}, {@code pkg/proxy/ipvs/proxier.go}). */
    public static final String DEFAULT_SCHEDULER = "rr";

    public IpvsConfig {
        Objects.requireNonNull(syncPeriod, "syncPeriod");
        Objects.requireNonNull(minSyncPeriod, "minSyncPeriod");
        Objects.requireNonNull(scheduler, "scheduler");
        excludeCIDRs = List.copyOf(excludeCIDRs);
        Objects.requireNonNull(tcpTimeout, "tcpTimeout");
        Objects.requireNonNull(tcpFinTimeout, "tcpFinTimeout");
        Objects.requireNonNull(udpTimeout, "udpTimeout");
    }

    /** Whether {@code name} is one of {@link #SCHEDULERS} or blank ({@link #DEFAULT_SCHEDULER}). */
    public static boolean knownScheduler(String name) {
        return name.isEmpty() || SCHEDULERS.contains(name);
    }

    /** The reason a scheduler not {@link #knownScheduler known} is refused, naming the accepted ones. */
    public static String schedulerReason() {
        return "must be one of " + String.join(", ", SCHEDULERS) + ", or blank for " + DEFAULT_SCHEDULER;
    }
}
