package io.kproxy.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How field names differ between {@code v1alpha1} and {@code v1alpha2} (upstream's
 * {@code pkg/proxy/apis/config/v1alpha1/conversion.go} and the KEP-784 draft's types). Two uses:
 * a field of the other version is refused as unknown with a hint naming the field to use instead
 * (strict decoding reports it only as unknown upstream), and validation errors, which
 * {@link Validator} reports with v1alpha1 paths, are renamed to the v1alpha2 paths of a v1alpha2
 * document. Pure and thread-safe.
 */
final class VersionFields {

    /** v1alpha1-only paths, and what v1alpha2 has instead. */
    private static final Map<String, String> V1ALPHA1_ONLY = Map.ofEntries(
            Map.entry("bindAddress", "nodeIPOverride"),
            Map.entry("healthzBindAddress", "healthzBindAddresses and healthzBindPort"),
            Map.entry("metricsBindAddress", "metricsBindAddresses and metricsBindPort"),
            Map.entry("bindAddressHardFail", "configHardFail"),
            Map.entry("clusterCIDR", "detectLocal.clusterCIDRs"),
            Map.entry("oomScoreAdj", "linux.oomScoreAdj"),
            Map.entry("conntrack", "linux.conntrack"),
            Map.entry("windowsRunAsService", "windows.runAsService"),
            Map.entry("portRange", "nothing (upstream dropped it with the userspace proxy)"),
            Map.entry("iptables.masqueradeAll", "linux.masqueradeAll"),
            Map.entry("nftables.masqueradeAll", "linux.masqueradeAll"),
            Map.entry("iptables.syncPeriod", "syncPeriod"),
            Map.entry("iptables.minSyncPeriod", "minSyncPeriod"),
            Map.entry("ipvs.syncPeriod", "syncPeriod"),
            Map.entry("ipvs.minSyncPeriod", "minSyncPeriod"),
            Map.entry("nftables.syncPeriod", "syncPeriod"),
            Map.entry("nftables.minSyncPeriod", "minSyncPeriod"),
            Map.entry("iptables.snatNodeInternalIP", "nothing"));

    /** v1alpha2-only paths, and what v1alpha1 has instead. */
    private static final Map<String, String> V1ALPHA2_ONLY = Map.ofEntries(
            Map.entry("nodeIPOverride", "bindAddress"),
            Map.entry("healthzBindAddresses", "healthzBindAddress"),
            Map.entry("healthzBindPort", "healthzBindAddress"),
            Map.entry("metricsBindAddresses", "metricsBindAddress"),
            Map.entry("metricsBindPort", "metricsBindAddress"),
            Map.entry("configHardFail", "bindAddressHardFail"),
            Map.entry("detectLocal.clusterCIDRs", "clusterCIDR"),
            Map.entry("linux", "conntrack, oomScoreAdj and iptables/nftables.masqueradeAll"),
            Map.entry("windows", "windowsRunAsService"),
            Map.entry("syncPeriod", "iptables/ipvs/nftables.syncPeriod"),
            Map.entry("minSyncPeriod", "iptables/ipvs/nftables.minSyncPeriod"),
            Map.entry("ipvs.masqueradeBit", "iptables.masqueradeBit (ipvs uses it)"));

    /** Validation paths (v1alpha1 names) that v1alpha2 names otherwise; prefixes end with a dot. */
    private static final Map<String, String> RENAMED = Map.ofEntries(
            Map.entry("bindAddress", "nodeIPOverride"),
            Map.entry("healthzBindAddress", "healthzBindAddresses"),
            Map.entry("metricsBindAddress", "metricsBindAddresses"),
            Map.entry("bindAddressHardFail", "configHardFail"),
            Map.entry("clusterCIDR", "detectLocal.clusterCIDRs"),
            Map.entry("oomScoreAdj", "linux.oomScoreAdj"),
            Map.entry("windowsRunAsService", "windows.runAsService"),
            Map.entry("iptables.masqueradeAll", "linux.masqueradeAll"),
            Map.entry("nftables.masqueradeAll", "linux.masqueradeAll"),
            Map.entry("iptables.syncPeriod", "syncPeriod"),
            Map.entry("iptables.minSyncPeriod", "minSyncPeriod"),
            Map.entry("ipvs.syncPeriod", "syncPeriod"),
            Map.entry("ipvs.minSyncPeriod", "minSyncPeriod"),
            Map.entry("nftables.syncPeriod", "syncPeriod"),
            Map.entry("nftables.minSyncPeriod", "minSyncPeriod"));

    private VersionFields() {
    }

    /** {@code errors} with each "unknown field" that is a field of the other version explained. */
    static List<FieldError> explainUnknown(List<FieldError> errors, ConfigVersion read) {
        Map<String, String> other = switch (read) {
            case V1ALPHA1 -> V1ALPHA2_ONLY;
            case V1ALPHA2 -> V1ALPHA1_ONLY;
        };
        String otherName = read == ConfigVersion.V1ALPHA1 ? "v1alpha2" : "v1alpha1";
        List<FieldError> out = new ArrayList<>(errors.size());
        for (FieldError e : errors) {
            String instead = e.reason().equals(TreeReader.UNKNOWN_FIELD) ? other.get(e.path()) : null;
            out.add(instead == null ? e : new FieldError(e.path(), e.value(), TreeReader.UNKNOWN_FIELD + " in " + read.apiVersion()
                    + " (a " + otherName + " field; " + read.name().toLowerCase(Locale.ROOT) + " has " + instead + ")"));
        }
        return out;
    }

    /**
     * A validation error of a configuration read from v1alpha2, with the v1alpha2 path. In ipvs
     * mode the masquerade bit kproxy checks as {@code iptables.masqueradeBit} came from
     * {@code ipvs.masqueradeBit}.
     */
    static FieldError toV1alpha2(FieldError e, ProxyMode mode) {
        String path = e.path();
        String renamed;
        if (mode == ProxyMode.IPVS && path.equals("iptables.masqueradeBit")) {
            renamed = "ipvs.masqueradeBit";
        } else if (path.startsWith("conntrack.")) {
            renamed = "linux." + path;
        } else if (path.startsWith("clusterCIDR")) {
            renamed = "detectLocal.clusterCIDRs" + path.substring("clusterCIDR".length());
        } else {
            renamed = RENAMED.getOrDefault(path, path);
        }
        return renamed.equals(path) ? e : new FieldError(renamed, e.value(), e.reason().replace(mode.apiName() + ".minSyncPeriod", "minSyncPeriod"));
    }
}
