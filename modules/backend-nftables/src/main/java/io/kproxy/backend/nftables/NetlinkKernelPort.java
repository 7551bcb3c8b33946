package io.kproxy.backend.nftables;

import io.kproxy.backend.KernelException;
import io.kproxy.backend.nftables.wire.BatchCompiler;
import io.kproxy.backend.nftables.wire.Schemas;
import io.kproxy.backend.spi.KernelPort;
import io.kproxy.netlink.NfTablesClient;
import io.kproxy.netlink.NfTablesException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link KernelPort} that writes transactions straight to nf_tables over netlink
 * ({@link NfTablesClient}): our own transaction text is compiled into one batch
 * ({@link BatchCompiler}) and sent, with no cache of the kernel's objects to refresh first.
 * That refresh is what makes libnftables slow on a big table (it reads every chain and set of
 * the table before evaluating a command that names one: about 0.4 s at 10,000 services).
 * A transaction the compiler cannot express goes through {@code fallback} (libnftables) whole.
 *
 * <p>The port remembers the set declarations of every transaction the kernel accepted, through
 * either path ({@link Schemas}): that is all it needs to encode elements. A refused transaction
 * left the kernel unchanged, so the remembered declarations stay as they were.
 *
 * <p>On Linux 6.12 and later, elements of a set new to the kernel name it by its batch id alone
 * ({@link BatchCompiler#compile}): the kernel then finds it among the transaction's new sets,
 * newest first, instead of comparing names with every set of the table.
 *
 * <p>A refusal is a {@link KernelException} naming the text line of the refused operation.
 * Thread-safe (serialised); blocks.
 */
final class NetlinkKernelPort implements KernelPort {

    private static final Logger LOG = LoggerFactory.getLogger(NetlinkKernelPort.class);

    /** From this many operations a transaction's compile and kernel times are logged at INFO (full syncs at scale). */
    private static final int LARGE_BATCH = 1_000;
    private static final Pattern RELEASE = Pattern.compile("^(\\d+)\\.(\\d+)");

    private final NfTablesClient client;
    private final KernelPort fallback;
    private final boolean newSetsById;
    private Schemas schemas = Schemas.empty();
    private long netlinkCommits;
    private long fallbackCommits;

    NetlinkKernelPort(NfTablesClient client, KernelPort fallback) {
        this.client = client;
        this.fallback = fallback;
        this.newSetsById = findsNewSetsById(release());
        LOG.debug("nftables new-sets-by-id={}", newSetsById);
    }

    /**
     * Whether a kernel of this release ({@code uname -r}) looks sets up by batch id among the
     * transaction's new sets only, newest first (Linux 6.12; before, it walked the whole
     * transaction, which at a hundred thousand operations is slower than the walk by name).
     */
    static boolean findsNewSetsById(String release) {
        Matcher m = RELEASE.matcher(release);
        if (!m.find()) {
            return false;
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        return major > 6 || major == 6 && minor >= 12;
    }

    private static String release() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip();
        } catch (IOException e) {
            LOG.debug("nftables kernel release unreadable: {}", e.getMessage());
            return "";
        }
    }

    @Override
    public synchronized void apply(String text) throws KernelException {
        run(text, true);
    }

    @Override
    public synchronized void check(String text) throws KernelException {
        run(text, false);
    }

    private void run(String text, boolean commit) throws KernelException {
        long start = System.nanoTime();
        BatchCompiler.Result r = BatchCompiler.compile(text, schemas, newSetsById);
        if (r.compiled().isEmpty()) {
            LOG.debug("nftables path=libnftables commit={} reason=\"{}\"", commit, r.unsupported());
            if (commit) {
                fallback.apply(text);
                schemas = BatchCompiler.track(text, schemas);
                fallbackCommits++;
            } else {
                fallback.check(text);
            }
            return;
        }
        BatchCompiler.Compiled c = r.compiled().get();
        long compiled = System.nanoTime();
        try {
            if (commit) {
                client.commit(c.batch());
                schemas = c.after();
                netlinkCommits++;
            } else {
                client.check(c.batch());
            }
        } catch (NfTablesException e) {
            throw refusal(text, c.lineOfOperation(), e);
        }
        long end = System.nanoTime();
        if (c.batch().size() >= LARGE_BATCH) {
            LOG.info("nftables path=netlink commit={} operations={} compile_millis={} kernel_millis={}", commit, c.batch().size(),
                    (compiled - start) / 1_000_000, (end - compiled) / 1_000_000);
        } else {
            LOG.debug("nftables path=netlink commit={} operations={} micros={}", commit, c.batch().size(), (end - start) / 1000);
        }
    }

    /** Transactions committed over netlink, and through the fallback (for tests and logs). */
    synchronized long[] commits() {
        return new long[] {netlinkCommits, fallbackCommits};
    }

    static KernelException refusal(String text, int[] lineOfOperation, NfTablesException e) {
        KernelException.Kind kind = e.retryable() ? KernelException.Kind.RETRYABLE : KernelException.Kind.FATAL;
        if (e.operation().isPresent() && e.operation().getAsInt() < lineOfOperation.length) {
            int line = lineOfOperation[e.operation().getAsInt()];
            String[] lines = text.split("\n", -1);
            return new KernelException(kind, e.getMessage(), line, lines[line - 1], e);
        }
        return new KernelException(kind, e.getMessage(), 0, null, e);
    }
}
