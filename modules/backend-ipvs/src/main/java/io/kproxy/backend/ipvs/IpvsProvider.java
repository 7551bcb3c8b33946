package io.kproxy.backend.ipvs;

import io.kproxy.backend.Backend;
import io.kproxy.backend.KernelException;
import io.kproxy.backend.ipvs.spi.IpvsKernel;
import io.kproxy.backend.ipvs.spi.MemoryIpvsKernel;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.backend.spi.ConntrackCleaner;
import io.kproxy.backend.spi.ConntrackPort;
import io.kproxy.backend.spi.KernelPort;
import io.kproxy.netlink.ConntrackTool;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code ipvs} mode. Stateless; thread-safe.
 *
 * <p>{@link #create(Optional)} programs a network namespace's IPVS, ipsets, {@code kube-ipvs0}
 * and helper rules through {@link NetlinkIpvsKernel} (the agent, {@code kproxy run --proxy-mode ipvs});
 * {@code kproxy render}, {@code diff}, {@code audit} and the tests use
 * {@link #create(KernelPort, ConntrackPort)}. Both use upstream's defaults for the {@code ipvs}
 * configuration section ({@link IpvsSettings#DEFAULT}: {@code rr}, no timeouts, no strict ARP, no
 * excludeCIDRs) until the node's settings carry that section (docs/backends/ipvs.md).
 */
public final class IpvsProvider implements BackendProvider {

    public static final String MODE = "ipvs";
    private static final Logger LOG = LoggerFactory.getLogger(IpvsProvider.class);

    @Override
    public String mode() {
        return MODE;
    }

    /**
     * A backend for the namespace's kernel: opens the netlink sockets and detects the iptables
     * variant (blocks). Refuses, as upstream's {@code CanUseIPVSProxier} makes kube-proxy refuse
     * to start (cmd/kube-proxy/app/server_linux.go), a kernel without IPVS or ipset: an
     * {@link IllegalStateException} whose message names what is missing and what to do
     * ({@code kproxy run} prints it and exits 1, docs/backends/ipvs.md "Start"). Fails the same
     * way when a socket cannot be opened.
     */
    @Override
    public Backend create(Optional<String> netns) {
        NetlinkIpvsKernel kernel = open(netns);
        Optional<String> missing = kernel.missingForIpvsMode();
        if (missing.isPresent()) {
            kernel.close();
            throw new IllegalStateException("ipvs mode cannot run" + netns.map(n -> " in netns " + n).orElse("") + ": " + missing.get()
                    + ". Load the modules (modprobe ip_vs ip_vs_rr ip_set, or boot a kernel built with them), or run another mode: "
                    + "--proxy-mode nftables or --proxy-mode iptables");
        }
        LOG.info("ipvs backend scheduler={} netns={}", IpvsSettings.DEFAULT.scheduler(), netns.orElse("-"));
        return new IpvsBackend(IpvsSettings.DEFAULT, true, kernel, Optional.empty(), conntrack(netns), Clock.systemUTC());
    }

    /**
     * Removes ipvs mode's objects without the start check: on a kernel without IPVS there is no
     * virtual server to delete, and the sets, chains and {@code kube-ipvs0} may still be there
     * (docs/backends/ipvs.md, "Cleanup").
     */
    @Override
    public void cleanupLeftovers(Optional<String> netns) throws KernelException {
        try (Backend b = new IpvsBackend(IpvsSettings.DEFAULT, true, open(netns), Optional.empty(), conntrack(netns), Clock.systemUTC())) {
            b.cleanup();
        }
    }

    private static NetlinkIpvsKernel open(Optional<String> netns) {
        try {
            return NetlinkIpvsKernel.open(netns);
        } catch (KernelException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** The {@code conntrack} tool of the namespace, as the shared {@link ConntrackCleaner} runs it (UDP cleanup after a sync). */
    static ConntrackCleaner conntrack(Optional<String> netns) {
        ConntrackTool tool = new ConntrackTool(netns);
        return new ConntrackCleaner(args -> {
            ConntrackTool.Output o = tool.run(args);
            return new ConntrackCleaner.Output(o.exitCode(), o.stdout(), o.stderr());
        });
    }

    /**
     * A backend whose transactions go, as text, to {@code kernel}, with an in-memory IPVS kernel
     * tracking what they program (rendering, tests): that kernel reports no connections, so a
     * drained real server goes at its first check. Renders use the node's {@code ipvs} settings
     * ({@code NodeState.settings().ipvs()}); {@code cleanup} spares no virtual server (upstream's defaults).
     */
    @Override
    public Backend create(KernelPort kernel, ConntrackPort conntrack) {
        return new IpvsBackend(IpvsSettings.DEFAULT, true, new MemoryIpvsKernel(), Optional.of(kernel), conntrack, Clock.systemUTC());
    }

    /** A backend programming {@code kernel}; {@code settings} are what {@code cleanup} uses (renders read the node's). */
    static IpvsBackend create(IpvsSettings settings, IpvsKernel kernel, ConntrackPort conntrack, Clock clock) {
        return new IpvsBackend(settings, true, kernel, Optional.empty(), conntrack, clock);
    }
}
