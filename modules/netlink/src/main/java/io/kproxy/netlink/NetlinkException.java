package io.kproxy.netlink;

/** A netlink socket call failed with {@code errno}. Package-private: callers see {@link NfTablesException}. */
final class NetlinkException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int errno;

    NetlinkException(String call, int errno) {
        super(call + ": " + Errno.describe(errno));
        this.errno = errno;
    }

    int errno() {
        return errno;
    }
}
