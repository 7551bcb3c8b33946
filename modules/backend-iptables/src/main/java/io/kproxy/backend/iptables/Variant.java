package io.kproxy.backend.iptables;

/** The two iptables implementations a node may use; their tools share one syntax. */
enum Variant {
    /** {@code iptables-nft}: xtables rules stored as nftables. */
    NFT("nft"),
    /** {@code iptables-legacy}: the original x_tables kernel interface. */
    LEGACY("legacy");

    private final String word;

    Variant(String word) {
        this.word = word;
    }

    /** {@code nft} or {@code legacy}, as in {@code iptables-nft-restore}. */
    String word() {
        return word;
    }

    /** A tool of this variant: {@code tool(Fam.V6, "restore")} is {@code ip6tables-nft-restore}. */
    String tool(Fam f, String what) {
        return f.tool() + "-" + word + (what.isEmpty() ? "" : "-" + what);
    }
}
