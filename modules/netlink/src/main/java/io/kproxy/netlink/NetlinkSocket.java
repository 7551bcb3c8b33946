package io.kproxy.netlink;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * A raw {@code AF_NETLINK} socket through the JDK's foreign-function API: {@code socket},
 * {@code bind}, {@code setsockopt}, {@code sendto} (to the kernel, port 0), {@code recv},
 * {@code close}, with {@code errno} captured per call. The socket belongs to the network
 * namespace of the thread that opened it; use it from that thread only (not thread-safe).
 * Every call blocks at most as long as the kernel takes, or the receive timeout.
 */
final class NetlinkSocket implements AutoCloseable {

    static final int NETLINK_ROUTE = 0;
    static final int NETLINK_NETFILTER = 12;
    static final int NETLINK_GENERIC = 16;
    private static final int AF_NETLINK = 16;
    private static final int SOCK_RAW = 3;
    private static final int SOCK_CLOEXEC = 0x80000;
    private static final int SOL_SOCKET = 1;
    private static final int SO_SNDBUFFORCE = 32;
    private static final int SO_RCVBUFFORCE = 33;
    private static final int SO_RCVTIMEO = 20;
    private static final int SOL_NETLINK = 270;
    private static final int NETLINK_CAP_ACK = 10;
    private static final int NETLINK_EXT_ACK = 11;
    private static final int NETLINK_GET_STRICT_CHK = 12;
    static final int EAGAIN = 11;
    static final int EINTR = 4;

    private static final Native N = new Native();

    private final int fd;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment errno = arena.allocate(N.stateLayout);
    private final MemorySegment rx;
    private int sndbuf;

    private NetlinkSocket(int fd, int receiveBuffer) {
        this.fd = fd;
        this.rx = arena.allocate(receiveBuffer);
    }

    /** Opens and binds a socket of {@code protocol}; throws {@link NetlinkException} with the errno. */
    static NetlinkSocket open(int protocol, int rcvbuf, int timeoutMillis) throws NetlinkException {
        int fd;
        MemorySegment state;
        try (Arena a = Arena.ofConfined()) {
            state = a.allocate(N.stateLayout);
            fd = (int) N.socket.invokeExact(state, AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, protocol);
            if (fd < 0) {
                throw new NetlinkException("socket(AF_NETLINK)", (int) N.errnoHandle.get(state, 0L));
            }
        } catch (NetlinkException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("socket(AF_NETLINK) failed", t);
        }
        NetlinkSocket s = new NetlinkSocket(fd, 256 * 1024);
        try {
            s.bind();
            s.setInt(SOL_NETLINK, NETLINK_EXT_ACK, 1, "NETLINK_EXT_ACK");
            s.setInt(SOL_NETLINK, NETLINK_CAP_ACK, 1, "NETLINK_CAP_ACK");
            s.setInt(SOL_SOCKET, SO_RCVBUFFORCE, rcvbuf, "SO_RCVBUFFORCE");
            s.setTimeout(timeoutMillis);
        } catch (NetlinkException | RuntimeException e) {
            s.close();
            throw e;
        }
        return s;
    }

    private void bind() throws NetlinkException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment addr = a.allocate(12);
            addr.set(ValueLayout.JAVA_SHORT, 0, (short) AF_NETLINK);
            int rc = (int) N.bind.invokeExact(errno, fd, addr, 12);
            check(rc, "bind(AF_NETLINK)");
        } catch (NetlinkException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * Asks the kernel to check dump requests strictly (Linux 4.20+): an rtnetlink dump then honours
     * the filters in its header, e.g. the link index of an address dump. False when the kernel does
     * not know the option (it then dumps everything, unfiltered).
     */
    boolean strictChecking() {
        try {
            setInt(SOL_NETLINK, NETLINK_GET_STRICT_CHK, 1, "NETLINK_GET_STRICT_CHK");
            return true;
        } catch (NetlinkException e) {
            return false;
        }
    }

    private void setInt(int level, int option, int value, String what) throws NetlinkException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocateFrom(ValueLayout.JAVA_INT, value);
            int rc = (int) N.setsockopt.invokeExact(errno, fd, level, option, v, 4);
            check(rc, "setsockopt(" + what + ")");
        } catch (NetlinkException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private void setTimeout(int millis) throws NetlinkException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment tv = a.allocate(16);
            tv.set(ValueLayout.JAVA_LONG, 0, millis / 1000);
            tv.set(ValueLayout.JAVA_LONG, 8, (millis % 1000) * 1000L);
            int rc = (int) N.setsockopt.invokeExact(errno, fd, SOL_SOCKET, SO_RCVTIMEO, tv, 16);
            check(rc, "setsockopt(SO_RCVTIMEO)");
        } catch (NetlinkException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * Sends the first {@code length} bytes of {@code bytes} (native memory, passed as it is) as one
     * datagram to the kernel, raising the send buffer when it is too small.
     */
    void send(MemorySegment bytes, int length) throws NetlinkException {
        if (length + 64 > sndbuf) {
            // netlink refuses a datagram larger than the send buffer (EMSGSIZE); nft does the same.
            int want = (int) Math.min(Integer.MAX_VALUE / 2, length + 64L);
            setInt(SOL_SOCKET, SO_SNDBUFFORCE, want, "SO_SNDBUFFORCE");
            sndbuf = want;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = bytes.asSlice(0, length);
            MemorySegment addr = a.allocate(12);
            addr.set(ValueLayout.JAVA_SHORT, 0, (short) AF_NETLINK);
            long n;
            do {
                n = (long) N.sendto.invokeExact(errno, fd, buf, (long) length, 0, addr, 12);
            } while (n < 0 && lastErrno() == EINTR);
            if (n < 0) {
                throw new NetlinkException("sendto(netlink)", lastErrno());
            }
        } catch (NetlinkException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * Receives one datagram into the socket's buffer; returns its bytes, or throws with the errno
     * ({@link #EAGAIN} after the receive timeout, {@code ENOBUFS} when replies were dropped).
     */
    byte[] receive() throws NetlinkException {
        try {
            long n;
            do {
                n = (long) N.recv.invokeExact(errno, fd, rx, rx.byteSize(), 0);
            } while (n < 0 && lastErrno() == EINTR);
            if (n < 0) {
                throw new NetlinkException("recv(netlink)", lastErrno());
            }
            return rx.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
        } catch (NetlinkException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private int lastErrno() {
        return (int) N.errnoHandle.get(errno, 0L);
    }

    private void check(int rc, String what) throws NetlinkException {
        if (rc < 0) {
            throw new NetlinkException(what, lastErrno());
        }
    }

    /** Closes the descriptor (an error closing it leaves nothing to do) and frees the buffers. */
    @Override
    public void close() {
        try {
            int rc = (int) N.close.invokeExact(fd);
            assert rc == 0 || rc == -1;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        } finally {
            arena.close();
        }
    }

    /** The libc entry points, looked up once. */
    private static final class Native {
        final StructLayout stateLayout = Linker.Option.captureStateLayout();
        final VarHandle errnoHandle = stateLayout.varHandle(MemoryLayout.PathElement.groupElement("errno"));
        final MethodHandle socket;
        final MethodHandle bind;
        final MethodHandle setsockopt;
        final MethodHandle sendto;
        final MethodHandle recv;
        final MethodHandle close;

        // Calling into libc is the point of this class; the launch grants native access to this module.
        @SuppressWarnings("restricted")
        Native() {
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            Linker.Option errno = Linker.Option.captureCallState("errno");
            ValueLayout i = ValueLayout.JAVA_INT;
            ValueLayout l = ValueLayout.JAVA_LONG;
            ValueLayout p = ValueLayout.ADDRESS;
            socket = linker.downcallHandle(libc.find("socket").orElseThrow(), FunctionDescriptor.of(i, i, i, i), errno);
            bind = linker.downcallHandle(libc.find("bind").orElseThrow(), FunctionDescriptor.of(i, i, p, i), errno);
            setsockopt = linker.downcallHandle(libc.find("setsockopt").orElseThrow(), FunctionDescriptor.of(i, i, i, i, p, i), errno);
            sendto = linker.downcallHandle(libc.find("sendto").orElseThrow(), FunctionDescriptor.of(l, i, p, l, i, p, i), errno);
            recv = linker.downcallHandle(libc.find("recv").orElseThrow(), FunctionDescriptor.of(l, i, p, l, i), errno);
            close = linker.downcallHandle(libc.find("close").orElseThrow(), FunctionDescriptor.of(i, i));
        }
    }
}
