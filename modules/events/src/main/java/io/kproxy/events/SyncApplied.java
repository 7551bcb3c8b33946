package io.kproxy.events;

import io.kproxy.model.InvalidValueException;
import java.time.Duration;

/**
 * A backend programmed the kernel successfully.
 *
 * @param backend     the mode ({@code nftables}, {@code iptables}, ...)
 * @param generation  the sync counter of this agent run, from 1
 * @param uptoOffset  every record at or below this offset is reflected in the rules
 * @param kind        full or partial sync
 * @param rulesetHash hash of the whole ruleset the backend owns after the sync
 * @param duration    how long the sync took
 */
public record SyncApplied(String backend, long generation, long uptoOffset, SyncKind kind, String rulesetHash, Duration duration)
        implements ClusterEvent {

    public SyncApplied {
        SyncFields.check(backend, generation, uptoOffset, kind, duration);
        if (rulesetHash == null || rulesetHash.isEmpty()) {
            throw new InvalidValueException("rulesetHash", "", "must not be empty");
        }
    }

    @Override
    public EventType type() {
        return EventType.SYNC_APPLIED;
    }
}
