package io.kproxy.demo;

import io.kproxy.model.ServiceRef;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * What {@code kproxy demo} was asked. Immutable.
 *
 * @param history    the recorded history (a journal directory)
 * @param service    the Service to probe, whose pods the demo runs
 * @param replay     how long the replay of the whole history should take (the history's time is
 *                   compressed to fit)
 * @param keep       where to write the demo's journal and keep it, empty for a temporary one
 * @param renderOnly do not touch any kernel, even as root
 */
public record DemoOptions(Path history, ServiceRef service, Duration replay, Optional<Path> keep, boolean renderOnly) {

    public DemoOptions {
        if (history == null || service == null || replay == null || keep == null) {
            throw new IllegalArgumentException("no component may be null");
        }
        if (replay.isNegative() || replay.isZero() || replay.compareTo(Duration.ofSeconds(100)) > 0) {
            throw new IllegalArgumentException("the replay takes more than 0 and at most 100 seconds");
        }
    }
}
