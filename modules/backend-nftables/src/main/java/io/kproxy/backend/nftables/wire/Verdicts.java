package io.kproxy.backend.nftables.wire;

import io.kproxy.netlink.NfVerdict;

/** Verdicts in nft syntax: {@code drop}, {@code accept}, {@code return}, {@code jump C}, {@code goto C}. Pure. */
final class Verdicts {

    private Verdicts() {
    }

    static NfVerdict parse(String text) {
        String[] w = text.strip().split(" ");
        if (w.length == 1) {
            return switch (w[0]) {
                case "drop" -> NfVerdict.of(NfVerdict.DROP);
                case "accept" -> NfVerdict.of(NfVerdict.ACCEPT);
                case "return" -> NfVerdict.of(NfVerdict.RETURN);
                default -> throw new Unsupported("verdict " + text);
            };
        }
        if (w.length == 2) {
            return switch (w[0]) {
                case "jump" -> NfVerdict.jump(w[1]);
                case "goto" -> NfVerdict.goTo(w[1]);
                default -> throw new Unsupported("verdict " + text);
            };
        }
        throw new Unsupported("verdict " + text);
    }
}
