package io.kproxy.netlink;

import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Picks how to reach nft: libnftables in-process when it loads, {@code nft -f -} otherwise. */
public final class NftExecutors {

    /** {@link #deferred}'s {@link NftExecutor#kind()} before its first script. */
    public static final String DEFERRED = "deferred";

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

    /**
     * An executor that picks and opens its way to nft ({@link #open}) at its first script, not
     * now: for a fallback that may never run. The nftables backend's netlink writer sends every
     * transaction it can express itself, so libnftables (jnr-ffi and its generated classes, about
     * 300 classes and a namespace thread) is loaded only when one cannot be expressed
     * (docs/backends/nftables.md, "Applying"). {@link NftExecutor#kind()} is {@value #DEFERRED}
     * until then. Thread-safe.
     */
    public static NftExecutor deferred(Optional<String> netns) {
        return new Deferred(netns);
    }

    private static final class Deferred implements NftExecutor {

        private final Optional<String> netns;
        private NftExecutor opened; // guarded by this
        private boolean closed; // guarded by this

        Deferred(Optional<String> netns) {
            this.netns = netns;
        }

        private synchronized NftExecutor get() {
            if (closed) {
                throw new IllegalStateException("nft executor closed");
            }
            if (opened == null) {
                opened = open(netns);
            }
            return opened;
        }

        @Override
        public NftResult run(String script, boolean dryRun) {
            return get().run(script, dryRun);
        }

        @Override
        public NftResult list(String command) {
            return get().list(command);
        }

        @Override
        public synchronized String kind() {
            return opened == null ? DEFERRED : opened.kind();
        }

        @Override
        public synchronized void close() {
            closed = true;
            if (opened != null) {
                opened.close();
            }
        }
    }
}
