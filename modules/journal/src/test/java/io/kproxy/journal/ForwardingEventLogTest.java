package io.kproxy.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.journal.spi.ForwardingEventLog;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A {@link ForwardingEventLog} that overrides nothing answers exactly as the log it wraps. */
class ForwardingEventLogTest {

    @Test
    void everyCallReachesTheWrappedLog() {
        MemoryEventLog inner = new MemoryEventLog();
        AtomicBoolean closed = new AtomicBoolean();
        ForwardingEventLog log = new ForwardingEventLog(inner) {
            @Override
            public void close() {
                closed.set(true);
                super.close();
            }
        };
        assertThat(log.append(Fixtures.drafts(0, 5)).join()).containsExactly(0L, 1L, 2L, 3L, 4L);
        assertThat(log.read(1, 2)).isEqualTo(inner.read(1, 2)).hasSize(2);
        assertThat(log.tail(3).take(2).collectList().block()).isEqualTo(inner.read(3, 2));
        assertThat(log.nextOffset()).isEqualTo(5);
        assertThat(log.firstOffset()).isZero();
        assertThat(log.offsetAt(Instant.EPOCH)).isEqualTo(inner.offsetAt(Instant.EPOCH));
        log.storeSnapshot(3, new byte[] {1, 2, 3});
        assertThat(inner.snapshotAtOrBefore(4)).hasValueSatisfying(s -> assertThat(s.offset()).isEqualTo(3));
        assertThat(log.snapshotAtOrBefore(4).orElseThrow().offset()).isEqualTo(3);
        log.close();
        assertThat(closed).isTrue();
    }

    @Test
    void aMissingDelegateIsRefused() {
        assertThatThrownBy(() -> new ForwardingEventLog(null) {
        }).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("delegate");
    }
}
