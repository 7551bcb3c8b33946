package io.kproxy.netlink;

import java.util.List;

/**
 * The kernel refused netlink requests sent by {@link IpvsClient}, {@link IpsetClient} or
 * {@link RtnlClient}, or could not be reached. Those requests are not atomic: every request not
 * listed in {@link #failures()} was applied. Immutable.
 */
public final class NetlinkRequestException extends Exception {

    private static final long serialVersionUID = 1L;

    /**
     * One refused request.
     *
     * @param index the request's position in what was sent (from 0), or -1 when none is to blame
     * @param what the request, e.g. {@code NEW_DEST TCP 10.96.0.10:80 -> 10.0.1.11:8080}
     * @param errno the kernel's error number (ipset's own codes are above 4096)
     * @param detail the kernel's extended-ack message, or the call that failed; may be empty
     */
    public record Failure(int index, String what, int errno, String detail) {
        public Failure {
            if (what == null || detail == null) {
                throw new IllegalArgumentException("what and detail are never null");
            }
        }

        @Override
        public String toString() {
            return what + ": " + Errno.describe(errno) + (detail.isEmpty() ? "" : " (" + detail + ")");
        }
    }

    private final transient List<Failure> failures;
    private final boolean retryable;

    NetlinkRequestException(List<Failure> failures, boolean retryable) {
        super(failures.size() + " request(s) refused; first: " + failures.get(0)
                + (failures.size() > 1 ? "; last: " + failures.get(failures.size() - 1) : ""));
        this.failures = List.copyOf(failures);
        this.retryable = retryable;
    }

    static NetlinkRequestException of(String what, NetlinkException e) {
        return new NetlinkRequestException(List.of(new Failure(-1, what, e.errno(), e.getMessage())), Errno.transientFailure(e.errno()));
    }

    /** Every refused request, in the order sent; never empty. */
    public List<Failure> failures() {
        return failures;
    }

    /** The errno of the first failure. */
    public int errno() {
        return failures.get(0).errno();
    }

    /** Whether trying again may succeed (the kernel was busy, short of memory, or did not answer). */
    public boolean retryable() {
        return retryable;
    }
}
