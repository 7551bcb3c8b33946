package io.kproxy.listen;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Issue 18: the admin socket's accept loop spun on a failing {@code accept} (24,818 warnings in
 * 30 s). A source that fails like {@code accept} out of descriptors ({@code EMFILE}) is retried
 * with growing pauses and logged as a few summary lines, and the recovery as one.
 */
class AcceptLoopTest {

    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(AcceptBackoff.class);

    @BeforeEach
    void capture() {
        lines.start();
        logger.addAppender(lines);
    }

    @AfterEach
    void release() {
        logger.detachAppender(lines);
    }

    @Test
    void aFailingAcceptBacksOffAndLogsAFewLinesNotOnePerFailure() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        AtomicBoolean failing = new AtomicBoolean(true);
        AcceptLoop.Source emfile = new AcceptLoop.Source() {
            @Override
            public SocketChannel accept() throws IOException {
                attempts.incrementAndGet();
                if (failing.get()) {
                    throw new IOException("Too many open files");
                }
                try {
                    Thread.sleep(30); // a client now and then
                } catch (InterruptedException e) {
                    throw new IOException("closed", e);
                }
                return SocketChannel.open();
            }

            @Override
            public void close() {
            }
        };
        Limits limits = Limits.HTTP.withBackoff(Duration.ofMillis(5), Duration.ofMillis(100), Duration.ofMillis(400));
        try (Slots slots = new Slots("t", limits); AcceptLoop _ = AcceptLoop.start("t", emfile, slots, limits, (c, s) -> { })) {
            Thread.sleep(1_000);
            int inOneSecond = attempts.get();
            List<String> failures = lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
            // 5, 10, 20, 40, 80 ms, then 100 ms each: about 13 attempts in a second (a spin makes millions).
            assertThat(inOneSecond).isBetween(5, 20);
            // The first failure, then one summary per 400 ms.
            assertThat(failures).hasSizeBetween(2, 4).allMatch(l -> l.startsWith("decision=accept-backoff listener=t failures="));
            assertThat(failures.get(0)).contains("error=\"java.io.IOException: Too many open files\"");
            failing.set(false);
            Awaitility.await().atMost(Duration.ofSeconds(2)).until(() -> lines.list.stream().anyMatch(e -> e.getFormattedMessage()
                    .startsWith("decision=accept-recovered listener=t failures=")));
            int after = lines.list.size();
            Thread.sleep(300);
            assertThat(lines.list).as("no line per accepted connection").hasSize(after);
        }
    }
}
