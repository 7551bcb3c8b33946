package io.kproxy.netlink;

import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Picks how to reach nft: libnftables in-process when it loads, {@code nft -f -} otherwise. */
public final class NftExecutors {

    private static final Logger LOG = LoggerFactory.getLogger(NftExecutors.class);

    private NftExecutors() {
    }

    /** An executor for the named namespace, or this process's own when empty. */
    public static NftExecutor open(Optional<String> netns) {
        Optional<LibNftExecutor> lib = LibNftExecutor.open(netns);
        if (lib.isPresent()) {
            LOG.debug("nft executor=libnftables netns={}", netns.orElse("-"));
            return lib.get();
        }
        LOG.info("nft executor=nft-command reason=libnftables-not-loadable netns={}", netns.orElse("-"));
        return new CommandNftExecutor(netns, Duration.ofMinutes(10));
    }
}
