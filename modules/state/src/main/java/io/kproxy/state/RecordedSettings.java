package io.kproxy.state;

import io.kproxy.config.ConfigTrees;
import io.kproxy.config.Defaults;
import io.kproxy.config.FieldError;
import io.kproxy.config.GoDuration;
import io.kproxy.config.IpvsConfig;
import io.kproxy.config.ProxyConfig;
import io.kproxy.config.ProxyMode;
import io.kproxy.config.RecordedConfig;
import io.kproxy.model.Cidr;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.IpAddress;
import io.kproxy.model.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link ProxySettings} from a recorded {@code KubeProxyConfiguration} tree. The tree is read by
 * the configuration core ({@link ConfigTrees#readRecorded}: upstream's defaults, each refused
 * value reported and replaced by its default); this class only interprets the values the
 * projection needs, and a value it cannot use is reported and left out, or set to its default,
 * so a bad record never stops the fold.
 */
final class RecordedSettings {

    private RecordedSettings() {
    }

    static ProxySettings read(String nodeName, Json.Obj recorded, Problems p) {
        RecordedConfig r = ConfigTrees.readRecorded(recorded);
        for (FieldError e : r.refused()) {
            p.add(e.path(), e.value(), e.reason(), "using the default");
        }
        return of(nodeName, r.config(), p);
    }

    /**
     * The settings of {@code c}. {@code masqueradeAll} is the mode in force's (v1alpha1's
     * conversion, {@code pkg/proxy/apis/config/v1alpha1/conversion.go}); {@code clusterCIDR} is
     * v1alpha1's comma-separated list ({@code strings.Split} there).
     */
    static ProxySettings of(String nodeName, ProxyConfig c, Problems p) {
        boolean nft = c.mode() == ProxyMode.NFTABLES;
        boolean masqueradeAll = nft ? c.nftables().masqueradeAll() : c.iptables().masqueradeAll();
        int iptBit = bit(c.iptables().masqueradeBit(), "iptables.masqueradeBit", p);
        int nftBit = bit(c.nftables().masqueradeBit(), "nftables.masqueradeBit", p);
        List<Cidr> serviceCIDRs = cidrs(c.kproxy().serviceCIDRs(), "kproxy.serviceCIDRs", p);
        String joined = c.clusterCIDR();
        List<Cidr> clusterCIDRs = cidrs(joined.isBlank() ? List.of() : List.of(joined.split(",")), "clusterCIDR", p);
        List<IpAddress> bind = List.of();
        String bindText = c.bindAddress();
        if (!bindText.isEmpty()) {
            try {
                IpAddress ip = IpAddress.parse("bindAddress", bindText);
                bind = ip.isUnspecified() ? List.of() : List.of(ip);
            } catch (InvalidValueException e) {
                p.add("bindAddress", e, "ignored");
            }
        }
        return new ProxySettings(nodeName, c.mode().apiName(), masqueradeAll, iptBit, nftBit, c.iptables().localhostNodePorts(),
                serviceCIDRs, clusterCIDRs, c.detectLocalMode(), c.detectLocal().bridgeInterface(), c.detectLocal().interfaceNamePrefix(),
                nodePortAddresses(c.nodePortAddresses(), p), bind, ipvs(c.ipvs(), p));
    }

    /**
     * The {@code ipvs} section with upstream's validation ({@code validation.go}) applied leniently:
     * an unknown scheduler is reported and {@code rr} used, a negative timeout reported and 0 (the
     * kernel's) used, a bad exclude CIDR reported and left out. Read in every mode, as the agent
     * validated it only in ipvs mode (so a bad value on another mode's node is reported too).
     */
    private static DataplaneSettings.Ipvs ipvs(IpvsConfig c, Problems p) {
        String scheduler = c.scheduler();
        if (!IpvsConfig.knownScheduler(scheduler)) {
            p.add("ipvs.scheduler", scheduler, IpvsConfig.schedulerReason(), "using " + IpvsConfig.DEFAULT_SCHEDULER);
            scheduler = IpvsConfig.DEFAULT_SCHEDULER;
        }
        return new DataplaneSettings.Ipvs(scheduler, cidrs(c.excludeCIDRs(), "ipvs.excludeCIDRs", p), c.strictARP(),
                timeout(c.tcpTimeout(), "ipvs.tcpTimeout", p), timeout(c.tcpFinTimeout(), "ipvs.tcpFinTimeout", p),
                timeout(c.udpTimeout(), "ipvs.udpTimeout", p));
    }

    private static Duration timeout(Duration d, String path, Problems p) {
        if (d.isNegative()) {
            p.add(path, GoDuration.format(d), "must be greater than or equal to 0", "using 0 (the kernel's timeout)");
            return Duration.ZERO;
        }
        return d;
    }

    /** A mark bit the kernel can hold; anything else is reported and the default used. */
    private static int bit(int bit, String path, Problems p) {
        if (bit < 0 || bit > 31) {
            p.add(path, "must be between 0 and 31; using " + Defaults.MASQUERADE_BIT);
            return Defaults.MASQUERADE_BIT;
        }
        return bit;
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
