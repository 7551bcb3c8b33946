package io.kproxy.state;

import io.kproxy.model.InvalidValueException;

/**
 * Where a piece of the folded state came from: the log offset of the record that last set it and
 * the API object's {@code resourceVersion} ("" when the record carries none). This is what
 * {@code --explain} and {@code audit} print next to a rule. Immutable and
 * thread-safe.
 *
 * @param offset          offset of the record in the event log, 0 or more
 * @param resourceVersion the object's {@code metadata.resourceVersion}, never null
 */
public record Origin(long offset, String resourceVersion) {

    public Origin {
        if (offset < 0) {
            throw new InvalidValueException("offset", offset, "must not be negative");
        }
        if (resourceVersion == null) {
            throw new InvalidValueException("resourceVersion", "null", "use \"\" when unknown");
        }
    }
}
