package io.kproxy.netlink;

import java.util.Map;

/** Names of the Linux errno values nf_tables answers with (asm-generic/errno-base.h, errno.h). */
final class Errno {

    static final int ENOENT = 2;
    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int ENOMEM = 12;
    static final int EBUSY = 16;
    static final int ENOBUFS = 105;

    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(1, "EPERM (Operation not permitted)"),
            Map.entry(ENOENT, "ENOENT (No such file or directory)"),
            Map.entry(EINTR, "EINTR (Interrupted system call)"),
            Map.entry(7, "E2BIG (Argument list too long)"),
            Map.entry(9, "EBADF (Bad file descriptor)"),
            Map.entry(EAGAIN, "EAGAIN (Resource temporarily unavailable)"),
            Map.entry(ENOMEM, "ENOMEM (Cannot allocate memory)"),
            Map.entry(13, "EACCES (Permission denied)"),
            Map.entry(EBUSY, "EBUSY (Device or resource busy)"),
            Map.entry(19, "ENODEV (No such device)"),
            Map.entry(17, "EEXIST (File exists)"),
            Map.entry(22, "EINVAL (Invalid argument)"),
            Map.entry(28, "ENOSPC (No space left on device)"),
            Map.entry(34, "ERANGE (Numerical result out of range)"),
            Map.entry(40, "ELOOP (Too many levels of symbolic links)"),
            Map.entry(75, "EOVERFLOW (Value too large for defined data type)"),
            Map.entry(90, "EMSGSIZE (Message too long)"),
            Map.entry(93, "EPROTONOSUPPORT (Protocol not supported)"),
            Map.entry(95, "EOPNOTSUPP (Operation not supported)"),
            Map.entry(97, "EAFNOSUPPORT (Address family not supported by protocol)"),
            Map.entry(99, "EADDRNOTAVAIL (Cannot assign requested address)"),
            Map.entry(ENOBUFS, "ENOBUFS (No buffer space available)"),
            Map.entry(110, "ETIMEDOUT (Connection timed out)"));

    private Errno() {
    }

    static String describe(int errno) {
        return NAMES.getOrDefault(errno, "errno " + errno);
    }

    /** Failures that may pass by themselves: busy, interrupted, short of memory or buffers. */
    static boolean transientFailure(int errno) {
        return errno == EAGAIN || errno == EINTR || errno == ENOMEM || errno == EBUSY || errno == ENOBUFS || errno == 110;
    }
}
