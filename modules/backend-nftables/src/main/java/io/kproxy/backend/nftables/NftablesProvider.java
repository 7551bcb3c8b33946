package io.kproxy.backend.nftables;

import io.kproxy.backend.Backend;
import io.kproxy.backend.KernelException;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.backend.spi.ConntrackCleaner;
import io.kproxy.backend.spi.ConntrackPort;
import io.kproxy.backend.spi.KernelPort;
import io.kproxy.netlink.ConntrackTool;
import io.kproxy.netlink.NfFamily;
import io.kproxy.netlink.NfTablesClient;
import io.kproxy.netlink.NfTablesException;
import io.kproxy.netlink.NftExecutor;
import io.kproxy.netlink.NftExecutors;
import io.kproxy.netlink.NftResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.Optional;

/**
 * The {@code nftables} mode. Stateless; thread-safe.
 *
 * <p>Transactions go to the kernel over netlink ({@link NetlinkKernelPort}), falling back to
 * libnftables (or {@code nft -f}) for what the netlink compiler does not express, and entirely
 * when the netlink socket cannot be opened. The system property {@value #CLIENT_PROPERTY}
 * set to {@code libnftables} skips the netlink writer (an escape hatch, and the benchmark's
 * baseline).
 */
public final class NftablesProvider implements BackendProvider {

    public static final String MODE = "nftables";
    public static final String CLIENT_PROPERTY = "kproxy.nftables.client";
    private static final Logger LOG = LoggerFactory.getLogger(NftablesProvider.class);

    @Override
    public String mode() {
        return MODE;
    }

    @Override
    public Backend create(Optional<String> netns) {
        ConntrackCleaner conntrack = new ConntrackCleaner(conntrackTool(netns));
        if ("libnftables".equals(System.getProperty(CLIENT_PROPERTY))) {
            NftExecutor executor = NftExecutors.open(netns);
            LOG.info("nftables client={} reason=property netns={}", executor.kind(), netns.orElse("-"));
            return throughNft(executor, conntrack);
        }
        NfTablesClient client;
        try {
            client = NfTablesClient.open(netns);
        } catch (NfTablesException e) {
            NftExecutor executor = NftExecutors.open(netns);
            LOG.warn("nftables client={} reason=\"netlink socket unavailable: {}\"", executor.kind(), e.getMessage());
            return throughNft(executor, conntrack);
        }
        // The fallback runs only the transactions the netlink writer cannot express: it is opened
        // (libnftables loaded, or nft found) at the first one, not at every start.
        NftExecutor fallback = NftExecutors.deferred(netns);
        LOG.info("nftables client=netlink fallback=libnftables-or-nft opened=at-first-use netns={}", netns.orElse("-"));
        return new NftBackend(new NetlinkKernelPort(client, new NftKernelPort(fallback)), conntrack, Optional.of(reader(client)), () -> {
            try (fallback; client) {
                // both closed
            }
        });
    }

    /** Everything through {@code executor} (libnftables, or {@code nft -f}): writes and table reads. */
    private static Backend throughNft(NftExecutor executor, ConntrackCleaner conntrack) {
        return new NftBackend(new NftKernelPort(executor), conntrack, Optional.of(reader(executor)), executor);
    }

    @Override
    public Backend create(KernelPort kernel, ConntrackPort conntrack) {
        return new NftBackend(kernel, conntrack, Optional.empty(), () -> {
        });
    }

    /** Reads a family's table with netlink dumps: names only, no rules or elements. */
    static KernelTable.Reader reader(NfTablesClient client) {
        return family -> {
            try {
                return client.objects(family.ipX().equals("ip6") ? NfFamily.IPV6 : NfFamily.IPV4, NftFamily.TABLE_NAME);
            } catch (NfTablesException e) {
                throw new KernelException(KernelException.Kind.RETRYABLE, e.getMessage());
            }
        };
    }

    /**
     * Reads a family's table through nft's listings ({@code list chains|sets|maps <family>}),
     * when there is no netlink socket: correct, but nft reads every set element to list the sets.
     */
    static KernelTable.Reader reader(NftExecutor executor) {
        return family -> {
            String[] out = new String[3];
            String[] kinds = {"chains", "sets", "maps"};
            for (int i = 0; i < kinds.length; i++) {
                NftResult r = executor.list("list " + kinds[i] + " " + family.ipX());
                if (!r.ok()) {
                    throw new KernelException(KernelException.Kind.RETRYABLE, "nft list " + kinds[i] + " " + family.ipX() + ": " + r.error().strip());
                }
                out[i] = r.output();
            }
            return KernelTable.parse(family, out[0], out[1], out[2]);
        };
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
