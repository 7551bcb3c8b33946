package io.kproxy.backend.iptables;

import io.kproxy.model.IpFamily;
import io.kproxy.netlink.Commands;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Chooses the iptables variant the node already uses, the way the iptables wrapper of
 * kube-proxy's image does ({@code kubernetes-sigs/iptables-wrappers}, {@code pkg/xtables/detect.go}
 * and the older {@code iptables-wrapper-installer.sh}): kubelet's hint chains
 * ({@code KUBE-IPTABLES-HINT}, {@code KUBE-KUBELET-CANARY}) in iptables-nft's mangle table, then
 * anywhere in iptables-legacy's tables (never {@code -t mangle} there: it would create the table);
 * failing both, the variant holding more rules (legacy only when strictly more), nft by default.
 */
final class VariantDetector {

    private static final Pattern KUBELET_CHAINS = Pattern.compile("(?m)^:(KUBE-IPTABLES-HINT|KUBE-KUBELET-CANARY)");

    /** The decision and why, for the log. */
    record Choice(Variant variant, String reason) {
    }

    /** What the saves printed; an absent tool printed nothing. */
    record Observed(String nftMangle4, String nftMangle6, String legacyAll4, String legacyAll6, String nftAll4, String nftAll6) {
    }

    private VariantDetector() {
    }

    /** Runs the saves (inside the namespace of {@code proc}) and decides. Blocks. */
    static Choice detect(Proc proc) {
        boolean nft = Proc.exists(Variant.NFT.tool(Fam.V4, "save"));
        boolean legacy = Proc.exists(Variant.LEGACY.tool(Fam.V4, "save"));
        if (!legacy) {
            return new Choice(Variant.NFT, "iptables-legacy-not-installed");
        }
        if (!nft) {
            return new Choice(Variant.LEGACY, "iptables-nft-not-installed");
        }
        Observed o = new Observed(save(proc, Variant.NFT, IpFamily.IPV4, true), save(proc, Variant.NFT, IpFamily.IPV6, true),
                save(proc, Variant.LEGACY, IpFamily.IPV4, false), save(proc, Variant.LEGACY, IpFamily.IPV6, false),
                save(proc, Variant.NFT, IpFamily.IPV4, false), save(proc, Variant.NFT, IpFamily.IPV6, false));
        return decide(o);
    }

    static Choice decide(Observed o) {
        if (KUBELET_CHAINS.matcher(o.nftMangle4()).find() || KUBELET_CHAINS.matcher(o.nftMangle6()).find()) {
            return new Choice(Variant.NFT, "kubelet-chains-in-iptables-nft");
        }
        if (KUBELET_CHAINS.matcher(o.legacyAll4()).find() || KUBELET_CHAINS.matcher(o.legacyAll6()).find()) {
            return new Choice(Variant.LEGACY, "kubelet-chains-in-iptables-legacy");
        }
        int legacyRules = SaveDump.parse(o.legacyAll4()).ruleCount() + SaveDump.parse(o.legacyAll6()).ruleCount();
        int nftRules = SaveDump.parse(o.nftAll4()).ruleCount() + SaveDump.parse(o.nftAll6()).ruleCount();
        if (legacyRules > nftRules) {
            return new Choice(Variant.LEGACY, "more-rules-in-iptables-legacy(" + legacyRules + ">" + nftRules + ")");
        }
        return new Choice(Variant.NFT, legacyRules == 0 && nftRules == 0 ? "default-no-rules-anywhere"
                : "more-rules-in-iptables-nft(" + nftRules + ">=" + legacyRules + ")");
    }

    private static String save(Proc proc, Variant v, IpFamily family, boolean mangleOnly) {
        Fam f = Fam.of(family);
        List<String> cmd = mangleOnly ? List.of(v.tool(f, "save"), "-t", "mangle") : List.of(v.tool(f, "save"));
        Commands.Result r = proc.run(cmd, null);
        return r.ok() ? r.stdout() : "";
    }
}
