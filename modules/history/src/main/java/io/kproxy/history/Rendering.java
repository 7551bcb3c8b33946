package io.kproxy.history;

import java.util.Optional;

/**
 * A ruleset rebuilt from history. Immutable and thread-safe; no null components.
 *
 * @param point        the point rendered
 * @param mode         the backend that rendered it
 * @param text         the ruleset, as {@code kproxy render} prints it (nftables: {@code nft -f}
 *                     commands; iptables: {@code iptables-restore} input per family)
 * @param hash         the backend's {@code rulesetHash} of it
 * @param recordedHash the hash the sync in force recorded, when the point has one in this mode
 */
public record Rendering(Point point, String mode, String text, String hash, Optional<String> recordedHash) {

    public Rendering {
        if (point == null || mode == null || text == null || hash == null || recordedHash == null) {
            throw new IllegalArgumentException("no null components");
        }
    }

    /** Whether this is the very ruleset the agent recorded having applied; empty when nothing recorded to compare with. */
    public Optional<Boolean> matchesRecorded() {
        return recordedHash.map(hash::equals);
    }

    /**
     * One line for standard error: the point, and whether the rebuilt ruleset is byte for byte the
     * one the agent recorded (a difference means another kproxy version rendered it, or the node's
     * backend saw kernel features this in-memory render does not assume; never records the journal
     * lost: a state that needs them is refused before it is rendered).
     */
    public String summary() {
        String recorded = recordedHash.map(r -> Printed.text(r.substring(0, Math.min(12, r.length())))).orElse("");
        String check = matchesRecorded().map(m -> m ? "; ruleset hash " + hash.substring(0, 12) + " equals the one the sync recorded"
                : "; ruleset hash " + hash.substring(0, 12) + " differs from the recorded " + recorded
                        + " (rendered by another kproxy version or with other kernel features; if neither, check the journal with"
                        + " kproxy journal verify)").orElse("");
        return Printed.text(mode) + " ruleset at " + point.describe() + check;
    }
}
