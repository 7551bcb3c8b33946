package io.kproxy.backend.spi;

import io.kproxy.backend.Plan;
import io.kproxy.backend.RulesetHash;

/**
 * The part every backend's {@link Plan} shares: the ruleset text and the ruleset hash are
 * computed once, on first demand, and kept (a plan is immutable, and the engine asks for the hash
 * of every plan it applies while {@code kproxy render} asks for the text of only a few). Two
 * threads racing on the first call may both compute; they get equal answers.
 *
 * <p>Subclasses must be immutable; {@link #computeRulesetText()} and {@link #hashSections} must
 * be pure. Thread-safe; never returns null; does not block.
 */
public abstract class MemoizedPlan implements Plan {

    private volatile String text;
    private volatile String hash;

    protected MemoizedPlan() {
    }

    /** The whole ruleset as text in the backend's language; what {@link #rulesetText()} returns. */
    protected abstract String computeRulesetText();

    /**
     * Adds this plan's sections to {@code hash} in order (one per family, IPv4 first), as
     * {@link RulesetHash} defines them; what {@link #rulesetHash()} is the hex of.
     */
    protected abstract void hashSections(RulesetHash.Builder hash);

    @Override
    public final String rulesetText() {
        String t = text;
        if (t == null) {
            t = computeRulesetText();
            text = t;
        }
        return t;
    }

    @Override
    public final String rulesetHash() {
        String h = hash;
        if (h == null) {
            RulesetHash.Builder b = RulesetHash.builder();
            hashSections(b);
            h = b.hex();
            hash = h;
        }
        return h;
    }
}
