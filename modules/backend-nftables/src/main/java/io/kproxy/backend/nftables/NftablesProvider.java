package io.kproxy.backend.nftables;

import io.kproxy.backend.Backend;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.backend.spi.ConntrackPort;
import io.kproxy.backend.spi.KernelPort;
import io.kproxy.netlink.ConntrackTool;
import io.kproxy.netlink.NftExecutor;
import io.kproxy.netlink.NftExecutors;
import java.util.Optional;

/** The {@code nftables} mode. Stateless; thread-safe. */
public final class NftablesProvider implements BackendProvider {

    public static final String MODE = "nftables";

    @Override
    public String mode() {
        return MODE;
    }

    @Override
    public Backend create(Optional<String> netns) {
        NftExecutor executor = NftExecutors.open(netns);
        return new NftBackend(new NftKernelPort(executor), new ConntrackCleaner(new ConntrackTool(netns)), executor);
    }

    @Override
    public Backend create(KernelPort kernel, ConntrackPort conntrack) {
        return new NftBackend(kernel, conntrack, () -> {
        });
    }
}
