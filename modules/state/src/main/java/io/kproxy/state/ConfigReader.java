package io.kproxy.state;

import io.kproxy.config.LocalMode;
import io.kproxy.config.ProxyMode;
import io.kproxy.model.Cidr;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.IpAddress;
import io.kproxy.model.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Reads {@link ProxySettings} from a recorded {@code KubeProxyConfiguration} tree (upstream field
 * names). A bad value is reported and replaced by its default; it never stops the fold.
 *
 * <p>This is a deliberately small private reader of the handful of fields the projection needs;
 * it should give way to the config module's binder once that exists.
 */
final class ConfigReader {

    private ConfigReader() {
    }

    static ProxySettings read(String nodeName, Json.Obj c, Problems p) {
        String mode = JsonRead.string(c, "mode", "mode", p).orElse("");
        if (mode.isEmpty()) {
            mode = ProxyMode.IPTABLES.apiName(); // server_linux.go platformApplyDefaults
        } else if (!isMode(mode)) {
            p.add("mode", "unknown proxy mode \"" + mode + "\"; using iptables");
            mode = ProxyMode.IPTABLES.apiName();
        }
        Json.Obj iptables = JsonRead.object(c, "iptables", "iptables", p);
        Json.Obj nftables = JsonRead.object(c, "nftables", "nftables", p);
        // v1alpha1 conversion: masqueradeAll comes from the section of the mode in force.
        boolean nft = mode.equals(ProxyMode.NFTABLES.apiName());
        boolean masqueradeAll = nft ? JsonRead.bool(nftables, "masqueradeAll", "nftables.masqueradeAll", p).orElse(false)
                : JsonRead.bool(iptables, "masqueradeAll", "iptables.masqueradeAll", p).orElse(false);
        int iptBit = bit(iptables, "iptables.masqueradeBit", p);
        int nftBit = bit(nftables, "nftables.masqueradeBit", p);
        boolean localhostNodePorts = JsonRead.bool(iptables, "localhostNodePorts", "iptables.localhostNodePorts", p).orElse(true);

        Json.Obj kproxy = JsonRead.object(c, "kproxy", "kproxy", p);
        List<Cidr> serviceCIDRs = cidrs(JsonRead.strings(kproxy, "serviceCIDRs", "kproxy.serviceCIDRs", p), "kproxy.serviceCIDRs", p);

        Json.Obj detectLocal = JsonRead.object(c, "detectLocal", "detectLocal", p);
        List<String> clusterCIDRText = JsonRead.strings(detectLocal, "clusterCIDRs", "detectLocal.clusterCIDRs", p);
        String clusterCIDRField = "detectLocal.clusterCIDRs";
        if (clusterCIDRText.isEmpty()) {
            // v1alpha1: a comma-separated list in clusterCIDR (conversion.go strings.Split).
            String joined = JsonRead.string(c, "clusterCIDR", "clusterCIDR", p).orElse("");
            clusterCIDRText = joined.isBlank() ? List.of() : List.of(joined.split(","));
            clusterCIDRField = "clusterCIDR";
        }
        List<Cidr> clusterCIDRs = cidrs(clusterCIDRText, clusterCIDRField, p);

        String localModeText = JsonRead.string(c, "detectLocalMode", "detectLocalMode", p).orElse("");
        LocalMode localMode = LocalMode.CLUSTER_CIDR;
        if (!localModeText.isEmpty()) {
            localMode = localMode(localModeText);
            if (localMode == null) {
                p.add("detectLocalMode", "unknown mode \"" + localModeText + "\"; using ClusterCIDR");
                localMode = LocalMode.CLUSTER_CIDR;
            }
        }
        String bridge = JsonRead.string(detectLocal, "bridgeInterface", "detectLocal.bridgeInterface", p).orElse("");
        String prefix = JsonRead.string(detectLocal, "interfaceNamePrefix", "detectLocal.interfaceNamePrefix", p).orElse("");

        List<String> npa = nodePortAddresses(JsonRead.strings(c, "nodePortAddresses", "nodePortAddresses", p), p);

        List<IpAddress> bind = List.of();
        String bindText = JsonRead.string(c, "bindAddress", "bindAddress", p).orElse("");
        if (!bindText.isEmpty()) {
            try {
                IpAddress ip = IpAddress.parse("bindAddress", bindText);
                bind = ip.isUnspecified() ? List.of() : List.of(ip);
            } catch (InvalidValueException e) {
                p.add("bindAddress", e, "ignored");
            }
        }
        return new ProxySettings(nodeName, mode, masqueradeAll, iptBit, nftBit, localhostNodePorts, serviceCIDRs, clusterCIDRs, localMode,
                bridge, prefix, npa, bind);
    }

    private static boolean isMode(String mode) {
        for (ProxyMode m : ProxyMode.values()) {
            if (m.apiName().equals(mode)) {
                return true;
            }
        }
        return false;
    }

    private static LocalMode localMode(String text) {
        for (LocalMode m : LocalMode.values()) {
            if (m.apiName().equals(text)) {
                return m;
            }
        }
        return null;
    }

    private static int bit(Json.Obj section, String path, Problems p) {
        OptionalLong v = JsonRead.integer(section, "masqueradeBit", path, p);
        if (v.isEmpty()) {
            return 14;
        }
        if (v.getAsLong() < 0 || v.getAsLong() > 31) {
            p.add(path, "must be between 0 and 31; using 14");
            return 14;
        }
        return (int) v.getAsLong();
    }

    private static List<Cidr> cidrs(List<String> texts, String path, Problems p) {
        List<Cidr> out = new ArrayList<>(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            try {
                out.add(Cidr.parse(path, texts.get(i)));
            } catch (InvalidValueException e) {
                p.add(path + "[" + i + "]", e, "ignored");
            }
        }
        return out;
    }

    /** Keywords kept as they are, CIDRs normalised; anything else reported and dropped. */
    private static List<String> nodePortAddresses(List<String> texts, Problems p) {
        List<String> out = new ArrayList<>(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            String t = texts.get(i).strip();
            if (t.equals(ProxySettings.PRIMARY) || t.equals(ProxySettings.ALL) || t.equals(ProxySettings.LOCALHOST)) {
                out.add(t);
                continue;
            }
            try {
                out.add(Cidr.parse("nodePortAddresses", t).toString());
            } catch (InvalidValueException e) {
                p.add("nodePortAddresses[" + i + "]", e, "ignored");
            }
        }
        return out;
    }
}
