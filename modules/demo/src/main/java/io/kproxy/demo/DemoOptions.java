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
 * @param mode       the proxy mode to render and program ({@code nftables}, {@code iptables},
 *                   {@code ipvs}); empty for the one the history recorded
 */
public record DemoOptions(Path history, ServiceRef service, Duration replay, Optional<Path> keep, boolean renderOnly, Optional<String> mode) {

    public DemoOptions {
        if (history == null || service == null || replay == null || keep == null || mode == null) {
            throw new IllegalArgumentException("no component may be null");
        }
        if (replay.isNegative() || replay.isZero() || replay.compareTo(Duration.ofSeconds(100)) > 0) {
            throw new IllegalArgumentException("the replay takes more than 0 and at most 100 seconds");
        }
    }

    /** In the history's own mode. */
    public DemoOptions(Path history, ServiceRef service, Duration replay, Optional<Path> keep, boolean renderOnly) {
        this(history, service, replay, keep, renderOnly, Optional.empty());
    }

    /** The mode the demo renders and programs: the one asked for, else the history's. */
    String modeOr(String recorded) {
        return mode.orElse(recorded);
    }
}
