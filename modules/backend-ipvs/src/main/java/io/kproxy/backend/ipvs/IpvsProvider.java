package io.kproxy.backend.ipvs;

import io.kproxy.backend.Backend;
import io.kproxy.backend.ipvs.spi.IpvsKernel;
import io.kproxy.backend.ipvs.spi.MemoryIpvsKernel;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.backend.spi.ConntrackPort;
import io.kproxy.backend.spi.KernelPort;
import java.time.Clock;
import java.util.Optional;

/**
 * The {@code ipvs} mode. Stateless; thread-safe.
 *
 * <p>This build renders, diffs and applies to an {@link IpvsKernel}, but has no adapter from that
 * port to the netlink clients yet, so {@link #create(Optional)} (a backend for a real network
 * namespace) refuses, and the agent refuses {@code --proxy-mode ipvs}; {@code kproxy render},
 * {@code diff}, {@code audit} and the tests use {@link #create(KernelPort, ConntrackPort)}.
 */
public final class IpvsProvider implements BackendProvider {

    public static final String MODE = "ipvs";

    @Override
    public String mode() {
        return MODE;
    }

    /** Refused: kproxy cannot program a kernel's IPVS yet (docs/backends/ipvs.md, "Status"). */
    @Override
    public Backend create(Optional<String> netns) {
        throw new IllegalStateException("ipvs mode cannot program a kernel in this build: the adapter from its kernel port to the "
                + "netlink IPVS, ipset and rtnetlink clients is not built yet (docs/backends/ipvs.md)");
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
