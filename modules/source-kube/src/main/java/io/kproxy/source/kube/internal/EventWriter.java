package io.kproxy.source.kube.internal;

import io.kproxy.source.kube.ApiEvent;
import java.time.Instant;

/** Writes Events to the API server; blocking; called from the recorder's one thread. */
interface EventWriter extends AutoCloseable {

    /** Creates {@code event}, observed at {@code now}. */
    WrittenEvent create(ApiEvent event, Instant now) throws EventWriteException;

    /** Sets the series of {@code written}: seen {@code count} times, the last at {@code lastObserved}. */
    void updateSeries(WrittenEvent written, int count, Instant lastObserved) throws EventWriteException;

    @Override
    void close();

    /** A write the API server refused or could not be asked; {@code retryable} when trying again may help. */
    final class EventWriteException extends Exception {
        private static final long serialVersionUID = 1L;
        private final boolean retryable;

        EventWriteException(String message, boolean retryable) {
            super(message);
            this.retryable = retryable;
        }

        boolean retryable() {
            return retryable;
        }
    }
}
