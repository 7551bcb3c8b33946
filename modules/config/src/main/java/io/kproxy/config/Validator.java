package io.kproxy.config;

import io.kproxy.model.Cidr;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.NodeName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Validation of a bound {@link ProxyConfig}: upstream's rules
 * ({@code pkg/proxy/apis/config/validation/validation.go}, reported with the v1alpha1 field paths
 * that upstream's {@code TestValidateV1Alpha1FieldPaths} expects, e.g. {@code iptables.masqueradeBit},
 * {@code nodePortAddresses[1]}) plus kproxy's own ({@link KproxyRules}). Every rule runs; all
 * errors are returned together. Pure and thread-safe.
 *
 * <p>Where kproxy is stricter than upstream, the rule says so: interface names must be valid
 * Linux names (they reach rulesets), {@code clusterCIDR} is checked in every local-detection mode
 * (not only ClusterCIDR), the IPVS scheduler is one of {@link IpvsConfig#SCHEDULERS} (upstream's
 * list plus {@code mh}), {@code qps} must be finite. Feature-gate names are not checked (kproxy has no registry of upstream's gates).
 */
public final class Validator {

    /** Keywords accepted in {@code nodePortAddresses} (KEP-6032; {@code primary} since 1.29). */
    public static final Set<String> NODE_PORT_KEYWORDS = Set.of("primary", "all", "localhost");

    /** INT_MAX / 1000 seconds: the largest conntrack timeout every kernel (HZ up to 1000) accepts. */
    static final Duration MAX_CONNTRACK_TIMEOUT = Duration.ofSeconds(Integer.MAX_VALUE / 1000);

    private static final Pattern MAJOR_MINOR = Pattern.compile("\\d+\\.\\d+");

    private Validator() {
    }

    /** Every rule the configuration breaks, whatever this build can run; empty when it is valid. */
    public static List<FieldError> validate(ProxyConfig c) {
        return validate(c, Availability.EVERYTHING);
    }

    /**
     * Every rule the configuration breaks, including a mode or an event log that {@code available}
     * does not have (the agent could not start it); empty when it is valid and can run.
     */
    public static List<FieldError> validate(ProxyConfig c, Availability available) {
        List<FieldError> errs = new ArrayList<>();
        if (!available.modes().contains(c.mode())) {
            errs.add(new FieldError("mode", c.mode().apiName(), "has no backend installed in this build (installed: " + available.modeNames() + ")"));
        }
        if (!available.eventLogs().contains(c.kproxy().eventLog().type())) {
            errs.add(new FieldError("kproxy.eventLog.type", c.kproxy().eventLog().type().apiName(),
                    "is not available in this build (available: " + available.eventLogNames() + ")"));
        }
        hostnameOverride(errs, c.hostnameOverride());
        FieldLimits.validate(errs, c);
        Checks.range(errs, "iptables.masqueradeBit", c.iptables().masqueradeBit(), 0, 31);
        switch (c.mode()) {
            case IPVS -> ipvs(errs, c.ipvs());
            case NFTABLES -> Checks.range(errs, "nftables.masqueradeBit", c.nftables().masqueradeBit(), 0, 31);
            case IPTABLES -> { }
        }
        syncPeriods(errs, c);
        conntrack(errs, c.conntrack());
        Checks.range(errs, "oomScoreAdj", c.oomScoreAdj(), -1000, 1000);
        Checks.nonNegative(errs, "clientConnection.burst", c.clientConnection().burst());
        if (!Float.isFinite(c.clientConnection().qps())) {
            errs.add(new FieldError("clientConnection.qps", Float.toString(c.clientConnection().qps()), "must be a finite number"));
        }
        Checks.positive(errs, "configSyncPeriod", c.configSyncPeriod());
        for (String ip : c.bindAddress().split(",", -1)) {
            if (HostPort.ip(ip).isEmpty()) {
                errs.add(new FieldError("bindAddress", ip, "must be a valid IP (e.g. 10.100.0.0 or fde4:8dba:82e1::)"));
            }
        }
        // An empty healthz or metrics address disables that server.
        if (!c.healthzBindAddress().isEmpty()) {
            Checks.hostPort(errs, "healthzBindAddress", c.healthzBindAddress());
        }
        if (!c.metricsBindAddress().isEmpty()) {
            Checks.hostPort(errs, "metricsBindAddress", c.metricsBindAddress());
        }
        if (!Checks.portRange(c.portRange())) {
            errs.add(new FieldError("portRange", c.portRange(), "must be a valid port range (e.g. 300-2000)"));
        }
        nodePortAddresses(errs, c.nodePortAddresses());
        if (!c.showHiddenMetricsForVersion().isEmpty() && !MAJOR_MINOR.matcher(c.showHiddenMetricsForVersion()).matches()) {
            errs.add(new FieldError("showHiddenMetricsForVersion", c.showHiddenMetricsForVersion(),
                    "must be a version of the form <major>.<minor>, e.g. 1.16"));
        }
        detectLocal(errs, c);
        clusterCIDR(errs, c.clusterCIDR());
        logging(errs, c.logging());
        KproxyRules.validate(errs, c.kproxy());
        return List.copyOf(errs);
    }

    /** {@code c} itself when valid. @throws ConfigException listing every broken rule */
    public static ProxyConfig requireValid(ProxyConfig c) {
        return requireValid(c, Availability.EVERYTHING);
    }

    /** {@code c} itself when valid and {@code available} can run it. @throws ConfigException listing every broken rule */
    public static ProxyConfig requireValid(ProxyConfig c, Availability available) {
        List<FieldError> errs = validate(c, available);
        if (!errs.isEmpty()) {
            throw new ConfigException(errs);
        }
        return c;
    }

    /**
     * Upstream uses {@code hostnameOverride}, trimmed and lower-cased ({@code nodeutil.GetHostname}),
     * as the name of its Node, which the API server validates as a DNS-1123 subdomain of at most
     * 253 characters (apimachinery {@code ValidateNodeName}); a name that cannot be a Node's is
     * refused here rather than when the agent starts.
     */
    private static void hostnameOverride(List<FieldError> errs, String hostname) {
        if (hostname.isEmpty()) {
            return;
        }
        try {
            new NodeName(hostname.strip().toLowerCase(Locale.ROOT));
        } catch (InvalidValueException e) {
            errs.add(new FieldError("hostnameOverride", hostname, "must be a valid node name: " + e.reason()));
        }
    }

    /** Upstream validates the one sync period pair converted from the mode's section (conversion.go). */
    private static void syncPeriods(List<FieldError> errs, ProxyConfig c) {
        String mode = c.mode().apiName();
        Checks.positive(errs, mode + ".syncPeriod", c.syncPeriod());
        Checks.nonNegative(errs, mode + ".minSyncPeriod", c.minSyncPeriod());
        if (c.minSyncPeriod().compareTo(c.syncPeriod()) > 0) {
            errs.add(new FieldError(mode + ".syncPeriod", GoDuration.format(c.syncPeriod()),
                    "must be greater than or equal to " + mode + ".minSyncPeriod"));
        }
    }

    private static void ipvs(List<FieldError> errs, IpvsConfig ipvs) {
        Checks.nonNegative(errs, "ipvs.tcpTimeout", ipvs.tcpTimeout());
        Checks.nonNegative(errs, "ipvs.tcpFinTimeout", ipvs.tcpFinTimeout());
        Checks.nonNegative(errs, "ipvs.udpTimeout", ipvs.udpTimeout());
        for (int i = 0; i < ipvs.excludeCIDRs().size(); i++) {
            if (Checks.cidr(ipvs.excludeCIDRs().get(i)).isEmpty()) {
                errs.add(new FieldError("ipvs.excludeCIDRs[" + i + "]", ipvs.excludeCIDRs().get(i), "must be a valid CIDR"));
            }
        }
        // validateIPVSSchedulerMethod; the list is shared with the fold and the ipvs backend.
        if (!IpvsConfig.knownScheduler(ipvs.scheduler())) {
            errs.add(new FieldError("ipvs.scheduler", ipvs.scheduler(), IpvsConfig.schedulerReason()));
        }
    }

    private static void conntrack(List<FieldError> errs, ConntrackConfig ct) {
        Checks.nonNegative(errs, "conntrack.maxPerCore", ct.maxPerCore());
        Checks.nonNegative(errs, "conntrack.min", ct.min());
        conntrackTimeout(errs, "conntrack.tcpEstablishedTimeout", ct.tcpEstablishedTimeout());
        conntrackTimeout(errs, "conntrack.tcpCloseWaitTimeout", ct.tcpCloseWaitTimeout());
        conntrackTimeout(errs, "conntrack.udpTimeout", ct.udpTimeout());
        conntrackTimeout(errs, "conntrack.udpStreamTimeout", ct.udpStreamTimeout());
    }

    /**
     * Upstream only requires a timeout to be non-negative (validation.go); kproxy also refuses what
     * the kernel cannot take, so that it is refused here rather than when the agent starts. The
     * sysctls are seconds kept in jiffies ({@code proc_dointvec_jiffies}: at most INT_MAX/HZ, and
     * HZ is at most 1000), so above 2,147,483 s the write fails; below one second upstream's
     * truncation to whole seconds would write 0 (docs/operations.md, "Conntrack settings").
     */
    private static void conntrackTimeout(List<FieldError> errs, String path, Duration d) {
        Checks.nonNegative(errs, path, d);
        if (d.isPositive() && d.compareTo(Duration.ofSeconds(1)) < 0) {
            errs.add(new FieldError(path, GoDuration.format(d), "must be 0 (leave the kernel's value) or at least 1s: the kernel takes whole seconds"));
        } else if (d.compareTo(MAX_CONNTRACK_TIMEOUT) > 0) {
            errs.add(new FieldError(path, GoDuration.format(d), "must be at most " + GoDuration.format(MAX_CONNTRACK_TIMEOUT)
                    + " (2147483s: the kernel keeps it in jiffies, INT_MAX/HZ with HZ up to 1000)"));
        }
    }

    /** CIDRs and keywords, in any combination (types.go, KEP-6032). */
    private static void nodePortAddresses(List<FieldError> errs, List<String> addresses) {
        for (int i = 0; i < addresses.size(); i++) {
            String a = addresses.get(i);
            if (!NODE_PORT_KEYWORDS.contains(a) && Checks.cidr(a).isEmpty()) {
                errs.add(new FieldError("nodePortAddresses[" + i + "]", a, "must be a valid CIDR or one of 'primary', 'all', 'localhost'"));
            }
        }
    }

    private static void detectLocal(List<FieldError> errs, ProxyConfig c) {
        DetectLocalConfig d = c.detectLocal();
        if (c.detectLocalMode() == LocalMode.BRIDGE_INTERFACE && d.bridgeInterface().isEmpty()) {
            errs.add(new FieldError("detectLocal.bridgeInterface", "", "must not be empty when detectLocalMode is BridgeInterface"));
        } else if (!d.bridgeInterface().isEmpty() && !Checks.interfaceName(d.bridgeInterface())) {
            errs.add(new FieldError("detectLocal.bridgeInterface", d.bridgeInterface(), "must be a valid interface name (1-15 characters, no '/', ':', quotes or blanks)"));
        }
        if (c.detectLocalMode() == LocalMode.INTERFACE_NAME_PREFIX && d.interfaceNamePrefix().isEmpty()) {
            errs.add(new FieldError("detectLocal.interfaceNamePrefix", "", "must not be empty when detectLocalMode is InterfaceNamePrefix"));
        } else if (!d.interfaceNamePrefix().isEmpty() && !Checks.interfaceName(d.interfaceNamePrefix())) {
            errs.add(new FieldError("detectLocal.interfaceNamePrefix", d.interfaceNamePrefix(), "must be a valid interface name prefix (1-15 characters, no '/', ':', quotes or blanks)"));
        }
    }

    /** A single CIDR or a dual-stack pair, comma-separated (validateDualStackCIDRStrings). */
    private static void clusterCIDR(List<FieldError> errs, String clusterCIDR) {
        if (clusterCIDR.isEmpty()) {
            return;
        }
        String[] parts = clusterCIDR.split(",", -1);
        if (parts.length > 2) {
            errs.add(new FieldError("clusterCIDR", clusterCIDR, "must be a either a single CIDR or dual-stack pair of CIDRs (e.g. 10.100.0.0/16,fde4:8dba:82e1::/48)"));
            return;
        }
        List<Cidr> cidrs = new ArrayList<>();
        for (String p : parts) {
            Optional<Cidr> cidr = Checks.cidr(p);
            if (cidr.isEmpty()) {
                errs.add(new FieldError("clusterCIDR", p, "must be a valid CIDR block (e.g. 10.100.0.0/16 or fde4:8dba:82e1::/48)"));
                return;
            }
            cidrs.add(cidr.get());
        }
        if (cidrs.size() == 2 && cidrs.get(0).family() == cidrs.get(1).family()) {
            errs.add(new FieldError("clusterCIDR", clusterCIDR, "must be a either a single CIDR or dual-stack pair of CIDRs (e.g. 10.100.0.0/16,fde4:8dba:82e1::/48)"));
        }
    }

    /** component-base {@code logs/api/v1/options.go} Validate: registered format, vmodule rules. */
    private static void logging(List<FieldError> errs, LoggingConfig l) {
        if (!l.format().equals("text") && !l.format().equals("json")) {
            errs.add(new FieldError("logging.format", l.format(), "Unsupported log format (text or json)"));
        }
        if (!l.vmodule().isEmpty() && !l.format().equals("text")) {
            errs.add(new FieldError("logging.vmodule", "", "Only supported for text log format"));
        }
        for (int i = 0; i < l.vmodule().size(); i++) {
            String pattern = l.vmodule().get(i).filePattern();
            if (pattern.isEmpty()) {
                errs.add(new FieldError("logging.vmodule[" + i + "]", "", "File pattern must not be empty"));
            } else if (pattern.contains("=") || pattern.contains(",")) {
                errs.add(new FieldError("logging.vmodule[" + i + "]", pattern, "File pattern must not contain equal sign or comma"));
            }
        }
        routing(errs, "logging.options.text", l.options().text());
        routing(errs, "logging.options.json", l.options().json());
    }

    private static void routing(List<FieldError> errs, String path, LoggingConfig.OutputRouting r) {
        if (!Checks.quantity(r.infoBufferSize())) {
            errs.add(new FieldError(path + ".infoBufferSize", r.infoBufferSize(), "must be a quantity (e.g. 0, 64Ki, 1M)"));
        }
    }
}
