package io.kproxy.backend.ipvs;

import io.kproxy.backend.KernelException;
import io.kproxy.model.IpFamily;
import io.kproxy.netlink.Commands;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The iptables tools of ipvs mode's helper rules, of one variant ({@code nft} or {@code legacy}),
 * run in a network namespace: {@code iptables-restore --noflush -w} of the node-wide helper chains
 * and the few jumps from the built-in chains. Their text does not grow with the Services (the
 * rules match the ipsets), so nothing here runs per Service. Thread-safe; every method blocks.
 */
final class IptablesTool {

    private static final Logger LOG = LoggerFactory.getLogger(IptablesTool.class);
    /** kubelet's chains, as the iptables wrapper of kube-proxy's image looks for them ({@code kubernetes-sigs/iptables-wrappers}). */
    private static final Pattern KUBELET_CHAINS = Pattern.compile("(?m)^:(KUBE-IPTABLES-HINT|KUBE-KUBELET-CANARY)");
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    private final Optional<String> netns;
    private final String variant;

    IptablesTool(Optional<String> netns, String variant) {
        this.netns = netns;
        this.variant = variant;
    }

    /**
     * The variant the node uses, and why: the only one installed; {@code legacy} when
     * {@code iptables-nft} does not work in this kernel (no nf_tables {@code ip} family, as in the
     * User-Mode Linux kernel, docs/uml.md); kubelet's hint chains in one of them; else {@code nft}
     * (the iptables wrapper's default).
     */
    static IptablesTool detect(Optional<String> netns) {
        boolean nft = exists("iptables-nft");
        boolean legacy = exists("iptables-legacy");
        String v;
        String reason;
        if (!legacy || !nft) {
            v = legacy ? "legacy" : "nft";
            reason = (legacy ? "iptables-nft" : "iptables-legacy") + "-not-installed";
        } else if (!run(netns, List.of(resolve("iptables-nft-save"), "-t", "filter"), null).ok()) {
            v = "legacy";
            reason = "iptables-nft-does-not-work-here";
        } else if (KUBELET_CHAINS.matcher(run(netns, List.of(resolve("iptables-nft-save"), "-t", "mangle"), null).stdout()).find()) {
            v = "nft";
            reason = "kubelet-chains-in-iptables-nft";
        } else if (KUBELET_CHAINS.matcher(run(netns, List.of(resolve("iptables-legacy-save")), null).stdout()).find()) {
            v = "legacy";
            reason = "kubelet-chains-in-iptables-legacy";
        } else {
            v = "nft";
            reason = "default";
        }
        LOG.info("ipvs helper rules iptables_variant={} reason={} netns={}", v, reason,
                netns.orElse("-"));
        return new IptablesTool(netns, v);
    }

    String variant() {
        return variant;
    }

    /** {@code iptables-restore --noflush -w} (ip6tables for IPv6) of {@code text}. */
    void restore(IpFamily family, String text) throws KernelException {
        Commands.Result r = run(netns, List.of(tool(family, "restore"), "--noflush", "-w"), text);
        if (!r.ok()) {
            throw new KernelException(r.exitCode() == 4 || r.exitCode() < 0 ? KernelException.Kind.RETRYABLE : KernelException.Kind.FATAL,
                    tool(family, "restore") + " exited " + r.exitCode() + ": " + r.stderr().strip());
        }
    }

    /** A jump from a built-in chain to one of ipvs mode's chains. */
    record Jump(String table, String chain, String comment, String target) {
        /** As {@code iptables-save} prints it. */
        String saved() {
            return "-A " + chain + " -m comment --comment \"" + comment + "\" -j " + target;
        }
    }

    /**
     * Upstream's {@code EnsureChain} and {@code EnsureRule(Prepend)} for every jump, with two
     * processes per family whatever their number: one {@code iptables-save} of the family, then,
     * when something is missing, one {@code iptables-restore --noflush} declaring the missing
     * target chains (an existing chain is never declared: that would flush it) and inserting the
     * missing jumps first in their built-in chains.
     */
    void ensureJumps(IpFamily family, List<Jump> jumps) throws KernelException {
        if (jumps.isEmpty()) {
            return;
        }
        Commands.Result save = run(netns, List.of(tool(family, "save")), null);
        require(save, tool(family, "save"));
        Map<String, StringBuilder> byTable = new TreeMap<>();
        String table = "";
        Set<String> present = new HashSet<>();
        for (String line : save.stdout().split("\n")) {
            if (line.startsWith("*")) {
                table = line.substring(1);
            } else if (line.startsWith(":") || line.startsWith("-A ")) {
                present.add(table + " " + (line.startsWith(":") ? line.split(" ")[0] : line));
            }
        }
        for (Jump j : jumps) {
            if (present.contains(j.table() + " " + j.saved())) {
                continue;
            }
            StringBuilder b = byTable.computeIfAbsent(j.table(), t -> new StringBuilder());
            if (present.add(j.table() + " :" + j.target())) {
                b.insert(0, ":" + j.target() + " - [0:0]\n");
            }
            b.append("-I ").append(j.chain()).append(" -m comment --comment \"").append(j.comment()).append("\" -j ").append(j.target())
                    .append('\n');
            present.add(j.table() + " " + j.saved());
        }
        if (byTable.isEmpty()) {
            return;
        }
        StringBuilder text = new StringBuilder();
        byTable.forEach((t, b) -> text.append('*').append(t).append('\n').append(b).append("COMMIT\n"));
        restore(family, text.toString());
    }

    /** Deletes the jump if present. */
    void deleteJump(IpFamily family, String table, String chain, String comment, String target) throws KernelException {
        if (rule(family, table, "-C", chain, comment, target).ok()) {
            require(rule(family, table, "-D", chain, comment, target), "delete jump " + chain + " -> " + target);
        }
    }

    private Commands.Result rule(IpFamily family, String table, String op, String chain, String comment, String target) {
        return run(netns, List.of(tool(family, ""), "-w", "-t", table, op, chain, "-m", "comment", "--comment", comment, "-j", target), null);
    }

    private static void require(Commands.Result r, String what) throws KernelException {
        if (!r.ok()) {
            throw new KernelException(KernelException.Kind.FATAL, what + ": exit " + r.exitCode() + ": " + r.stderr().strip());
        }
    }

    /** {@code ip6tables-legacy-restore} and the like. */
    private String tool(IpFamily family, String what) {
        return resolve((family == IpFamily.IPV6 ? "ip6tables" : "iptables") + "-" + variant + (what.isEmpty() ? "" : "-" + what));
    }

    private static Commands.Result run(Optional<String> netns, List<String> command, String stdin) {
        return Commands.run(Commands.inNetns(netns, command), stdin, TIMEOUT, command);
    }

    private static boolean exists(String tool) {
        return !resolve(tool).equals(tool);
    }

    /** The absolute path of a tool on PATH or in the sbin directories (where iptables lives), or the name itself. */
    private static String resolve(String tool) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/sbin"));
        for (String d : dirs) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, tool))) {
                return Path.of(d, tool).toString();
            }
        }
        return tool;
    }
}
