package io.kproxy.netlink;

import java.util.Objects;

/**
 * A verdict: a code ({@code NF_DROP} 0, {@code NF_ACCEPT} 1, {@code NFT_JUMP} -3, {@code NFT_GOTO}
 * -4, {@code NFT_RETURN} -5) and, for jump and goto, the target chain. Immutable.
 *
 * @param code  the verdict code
 * @param chain the target chain, or null for a code without one
 */
public record NfVerdict(int code, String chain) {

    public static final int DROP = 0;
    public static final int ACCEPT = 1;
    public static final int JUMP = -3;
    public static final int GOTO = -4;
    public static final int RETURN = -5;

    public NfVerdict {
        boolean needsChain = code == JUMP || code == GOTO;
        if (needsChain != (chain != null)) {
            throw new IllegalArgumentException("jump and goto, and only they, name a chain");
        }
    }

    public static NfVerdict of(int code) {
        return new NfVerdict(code, null);
    }

    public static NfVerdict jump(String chain) {
        return new NfVerdict(JUMP, Objects.requireNonNull(chain));
    }

    public static NfVerdict goTo(String chain) {
        return new NfVerdict(GOTO, Objects.requireNonNull(chain));
    }

    /** {@code NFTA_VERDICT_CODE} and {@code NFTA_VERDICT_CHAIN} inside an {@code NFTA_DATA_VERDICT} nest. */
    void encode(NlWriter w) {
        int v = w.beginNest(2);
        w.u32Be(1, code);
        if (chain != null) {
            w.string(2, chain);
        }
        w.endNest(v);
    }
}
