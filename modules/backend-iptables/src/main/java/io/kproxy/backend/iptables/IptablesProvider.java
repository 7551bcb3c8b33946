package io.kproxy.backend.iptables;

import io.kproxy.backend.Backend;
import io.kproxy.backend.KernelException;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.backend.spi.ConntrackCleaner;
import io.kproxy.backend.spi.ConntrackPort;
import io.kproxy.backend.spi.KernelPort;
import io.kproxy.model.IpFamily;
import io.kproxy.netlink.Commands;
import io.kproxy.netlink.ConntrackTool;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code iptables} mode. Stateless; thread-safe. {@link #create(Optional)} probes the target
 * namespace once: which iptables variant the node uses (logged with the reason), which families
 * iptables supports there, and the features that change rule text ({@link Features}). Blocks
 * while probing.
 */
public final class IptablesProvider implements BackendProvider {

    public static final String MODE = "iptables";
    private static final Logger LOG = LoggerFactory.getLogger(IptablesProvider.class);
    private static final Pattern VERSION = Pattern.compile("v(\\d+)\\.(\\d+)\\.(\\d+)");
    /** One restore of a 10,000-service full sync stays well under this. */
    private static final Duration TOOL_TIMEOUT = Duration.ofMinutes(5);

    @Override
    public String mode() {
        return MODE;
    }

    @Override
    public Backend create(Optional<String> netns) {
        Proc proc = new Proc(netns, TOOL_TIMEOUT);
        VariantDetector.Choice choice = VariantDetector.detect(proc);
        return create(proc, choice.variant(), choice.reason());
    }

    /**
     * This mode's {@code --cleanup} in the namespace, run by the other modes at their start: skipped
     * when the namespace holds no iptables table at all ({@link IptablesTables}), since then no rule
     * of this mode can be there and each iptables tool would read the whole nf_tables ruleset of its
     * family for nothing; otherwise as {@link BackendProvider#cleanupLeftovers}.
     */
    @Override
    public void cleanupLeftovers(Optional<String> netns) throws KernelException {
        Optional<List<String>> tables = IptablesTables.present(new Proc(netns, TOOL_TIMEOUT));
        if (tables.isPresent() && tables.get().isEmpty()) {
            LOG.info("decision=cleanup-skipped mode=iptables reason=\"no iptables table in the namespace, nft or legacy\" netns={}",
                    netns.orElse("-"));
            return;
        }
        LOG.debug("decision=cleanup mode=iptables tables={}", tables.map(Object::toString).orElse("unknown"));
        BackendProvider.super.cleanupLeftovers(netns);
    }

    /** A backend using {@code variant} without detecting (tests and benchmarks of both variants). */
    static IptablesBackend create(Proc proc, Variant variant, String reason) {
        Set<IpFamily> families = EnumSet.noneOf(IpFamily.class);
        for (IpFamily family : IpFamily.values()) {
            if (proc.run(List.of(variant.tool(Fam.of(family), "save"), "-t", "filter"), null).ok()) {
                families.add(family);
            }
        }
        Features features = probe(proc, variant);
        LOG.info("iptables backend variant={} reason={} families={} randomFully={} nfacct={} tcpBeLiberal={} netns={}", variant.word(), reason,
                families, features.randomFully(), features.nfacct(), features.tcpBeLiberal(), proc.netns().orElse("-"));
        return new IptablesBackend(features, new CommandApplier(proc, variant, families), new ConntrackCleaner(conntrackTool(proc.netns())));
    }

    @Override
    public Backend create(KernelPort kernel, ConntrackPort conntrack) {
        return new IptablesBackend(Features.DEFAULT, new PortApplier(kernel), conntrack);
    }

    /**
     * Upstream's {@code HasRandomFully} (iptables 1.6.2 or later) and the
     * {@code nf_conntrack_tcp_be_liberal} sysctl of the namespace. nfacct counters are not
     * created by kproxy, so rules never count into them (as upstream when it cannot create them).
     */
    private static Features probe(Proc proc, Variant variant) {
        Commands.Result v = proc.run(List.of(variant.tool(Fam.V4, ""), "--version"), null);
        boolean randomFully = false;
        Matcher m = VERSION.matcher(v.stdout());
        if (m.find()) {
            int major = Integer.parseInt(m.group(1));
            int minor = Integer.parseInt(m.group(2));
            int patch = Integer.parseInt(m.group(3));
            randomFully = major > 1 || major == 1 && (minor > 6 || minor == 6 && patch >= 2);
        }
        Commands.Result liberal = proc.run(List.of("sysctl", "-n", "net.netfilter.nf_conntrack_tcp_be_liberal"), null);
        boolean tcpBeLiberal = liberal.ok() && !liberal.stdout().strip().equals("0") && !liberal.stdout().isBlank();
        return new Features(randomFully, false, tcpBeLiberal);
    }

    /** The {@code conntrack} tool of the namespace, as the shared {@link ConntrackCleaner} runs it. */
    private static ConntrackCleaner.Tool conntrackTool(Optional<String> netns) {
        ConntrackTool tool = new ConntrackTool(netns);
        return args -> {
            ConntrackTool.Output o = tool.run(args);
            return new ConntrackCleaner.Output(o.exitCode(), o.stdout(), o.stderr());
        };
    }
}
