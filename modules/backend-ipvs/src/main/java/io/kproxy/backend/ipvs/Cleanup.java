package io.kproxy.backend.ipvs;

import io.kproxy.backend.KernelException;
import io.kproxy.backend.ipvs.spi.IpvsKernel;
import io.kproxy.backend.ipvs.spi.VirtualServer;
import io.kproxy.model.IpFamily;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code --cleanup} does for ipvs mode (upstream's {@code cleanupLeftovers},
 * {@code pkg/proxy/ipvs/proxier.go}): unlink and delete the helper chains, delete the virtual
 * servers, the dummy device and the sets (last: iptables must not reference them any more).
 * Only when the node shows ipvs mode (the dummy device or one of its sets exists): the chains
 * {@code KUBE-SERVICES}, {@code KUBE-POSTROUTING}, {@code KUBE-MARK-MASQ}, {@code KUBE-FORWARD}
 * and {@code KUBE-PROXY-FIREWALL} have the same names in iptables mode, and an iptables-mode node
 * must not lose them to a cleanup of a mode it never ran. Virtual servers inside
 * {@code excludeCIDRs} stay (upstream flushes them all: docs/backends/ipvs.md). Idempotent; blocks.
 */
final class Cleanup {

    private static final Logger LOG = LoggerFactory.getLogger(Cleanup.class);

    private Cleanup() {
    }

    static void run(IpvsKernel kernel, IpvsSettings settings) throws KernelException {
        Set<String> sets = new HashSet<>(kernel.sets());
        boolean ours = kernel.linkExists(PartText.DUMMY);
        for (IpFamily f : IpFamily.values()) {
            for (IpSets s : IpSets.values()) {
                ours |= sets.contains(s.name(f));
            }
        }
        if (!ours) {
            LOG.info("decision=cleanup-skipped mode=ipvs reason=\"no kube-ipvs0 and no ipvs set: this node does not run ipvs mode\"");
            return;
        }
        for (IpFamily f : IpFamily.values()) {
            for (IptablesRules.Jump j : IptablesRules.JUMPS) {
                kernel.deleteJump(f, j.table(), j.chain(), j.comment(), j.target());
            }
            StringBuilder b = new StringBuilder("*nat\n");
            IptablesRules.NAT_CHAINS.forEach(c -> b.append(':').append(c).append(" - [0:0]\n"));
            IptablesRules.NAT_CHAINS.forEach(c -> b.append("-X ").append(c).append('\n'));
            b.append("COMMIT\n*filter\n");
            IptablesRules.FILTER_CHAINS.forEach(c -> b.append(':').append(c).append(" - [0:0]\n"));
            IptablesRules.FILTER_CHAINS.forEach(c -> b.append("-X ").append(c).append('\n'));
            kernel.iptablesRestore(f, b.append("COMMIT\n").toString());
        }
        int deleted = 0;
        for (VirtualServer vs : kernel.virtualServers()) {
            if (!settings.excluded(vs.key().address())) {
                kernel.deleteVirtualServer(vs.key());
                deleted++;
            }
        }
        kernel.deleteLink(PartText.DUMMY);
        for (IpFamily f : IpFamily.values()) {
            for (IpSets s : IpSets.values()) {
                if (sets.contains(s.name(f))) {
                    kernel.destroySet(s.name(f));
                }
            }
        }
        kernel.flush();
        LOG.info("decision=cleaned-up mode=ipvs virtual_servers={}", deleted);
    }
}
