package io.kproxy.netlink;

/**
 * The libc calls for entering a network namespace. Public only because jnr-ffi implements it
 * from outside this module; use {@link NetnsThread}.
 */
public interface LibC {

    int open(String path, int flags);

    int close(int fd);

    int setns(int fd, int nstype);

    int unshare(int flags);
}
