package io.kproxy.chaos;

/**
 * The faults the runner injects, each named on a page of {@code chaos/} (its invariant is
 * there). The schedule draws them from the seed with equal weight among those it is given.
 */
enum FaultKind {
    /** Every connection between agent and API server ends with a TCP RST (chaos/api-server-loss.md). */
    RESET,
    /** Nothing moves either way for a while, sockets stay open, then the partition heals (chaos/api-server-loss.md). */
    BLACK_HOLE,
    /** The open connections (the watches) stop silently for 3-20 s, new ones work; then the stalled ones are reset (chaos/slow-watch.md). */
    STALL,
    /**
     * As STALL, but the stalled connections stay half-open until the agent has converged without
     * them: it must notice that a watch outlived its timeout (chaos/slow-watch.md).
     */
    HALF_OPEN,
    /** Every chunk from and to the API server is delayed (chaos/slow-watch.md). */
    SLOW,
    /** Watches are answered with a 410 ERROR event (too old resource version) after a reset (chaos/410-gone-relist.md). */
    GONE_EVENT,
    /** Watches are answered with a plain HTTP 410 after a reset (chaos/410-gone-relist.md). */
    GONE_HTTP,
    /** Connections refused for longer than the health timeout; /healthz must turn 503 and back (chaos/api-server-loss.md). */
    API_DOWN,
    /** The API server stops, the data changes, a new one starts with fresh resourceVersions (chaos/410-gone-relist.md). */
    API_RESTART,
    /** kill -9 of the agent at a random moment (during churn: mid-list, mid-apply, mid-append) and its restart (chaos/crash-mid-apply.md). */
    KILL9,
    /**
     * The kernel refuses the agent's nftables transactions (EPERM) for 5-15 s: another process
     * owns its table meanwhile (chaos/kernel-apply-failure.md).
     */
    KERNEL_REFUSAL,
    /** The journal's file system is full for 3-12 s, then freed (chaos/full-disk.md). */
    DISK_FULL,
    /**
     * kill -9 and a restart whose CLOCK_MONOTONIC and CLOCK_BOOTTIME are stepped by up to 30 days
     * forwards or back from the previous life's (a time namespace; chaos/clock-step.md).
     */
    CLOCK_STEP
}
