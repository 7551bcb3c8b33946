package io.kproxy.listen;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.SocketChannel;
import java.time.Duration;

/**
 * Closing a connection whose client has sent more than was read makes the kernel reset it (TCP
 * and Unix stream sockets alike), and a reset can discard the answer before the client reads it.
 * So after an answer that ends a connection early (a refusal, a 400, a 431) the output is shut
 * down and what the client still sends is read and dropped, up to a bound and a short deadline,
 * as Go's {@code net/http} does ({@code closeWriteAndWait}). Stateless.
 */
public final class Linger {

    private Linger() {
    }

    /**
     * Shuts {@code ch}'s output down, then reads {@code in} (over {@code ch}) until the client
     * closes, {@code maxBytes} were dropped, or {@code linger} passed ({@code slot}'s deadline
     * closes the connection then).
     */
    public static void drain(SocketChannel ch, InputStream in, Slots.Slot slot, Duration linger, long maxBytes) {
        try {
            ch.shutdownOutput();
            slot.busy(linger);
            byte[] buf = new byte[4096];
            long dropped = 0;
            for (int n = in.read(buf); n >= 0 && dropped < maxBytes; n = in.read(buf)) {
                dropped += n;
            }
        } catch (IOException e) {
            // the client went away or the deadline closed it: either way the answer was sent
        }
    }
}
