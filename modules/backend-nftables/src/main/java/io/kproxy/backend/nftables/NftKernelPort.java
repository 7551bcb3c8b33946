package io.kproxy.backend.nftables;

import io.kproxy.backend.KernelException;
import io.kproxy.backend.spi.KernelPort;
import io.kproxy.netlink.NftExecutor;
import io.kproxy.netlink.NftResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link KernelPort} over an {@link NftExecutor} (libnftables in-process, or {@code nft -f -}).
 * Turns nft's refusal into a {@link KernelException} holding nft's message and the failing line
 * of the transaction. Thread-safe when the executor is; blocks.
 */
final class NftKernelPort implements KernelPort {

    private static final Logger LOG = LoggerFactory.getLogger(NftKernelPort.class);
    // "/dev/stdin:12:1-40: Error: ..." or "<cmdline>:12:1-40: Error: ..."
    private static final Pattern LOCATED = Pattern.compile("^[^\\n]*?:(\\d+):\\d+(?:-\\d+)?: Error: (.*)$", Pattern.MULTILINE);
    private static final Pattern RETRYABLE = Pattern.compile(
            "Device or resource busy|Resource temporarily unavailable|Interrupted system call|Cannot allocate memory|No buffer space available|timed out|interrupted");

    private final NftExecutor executor;

    NftKernelPort(NftExecutor executor) {
        this.executor = executor;
    }

    @Override
    public void apply(String text) throws KernelException {
        run(text, false);
    }

    @Override
    public void check(String text) throws KernelException {
        run(text, true);
    }

    private void run(String text, boolean dryRun) throws KernelException {
        long start = System.nanoTime();
        NftResult r = executor.run(text, dryRun);
        LOG.debug("nft run executor={} dryRun={} ok={} micros={}", executor.kind(), dryRun, r.ok(), (System.nanoTime() - start) / 1000);
        if (!r.ok()) {
            throw refusal(text, r.error());
        }
    }

    /** Parses nft's error text; public for tests of the parser. */
    static KernelException refusal(String script, String error) {
        Matcher m = LOCATED.matcher(error);
        KernelException.Kind kind = RETRYABLE.matcher(error).find() ? KernelException.Kind.RETRYABLE : KernelException.Kind.FATAL;
        String[] lines = script.split("\n", -1);
        if (m.find()) {
            int line = Integer.parseInt(m.group(1));
            String failing = line >= 1 && line <= lines.length ? lines[line - 1] : null;
            return new KernelException(kind, error.strip(), line, failing, null);
        }
        // libnftables reading a buffer names no location: it echoes the failing command on the
        // line after "Error: ...", with carets under the offending part.
        String[] out = error.split("\n");
        for (int i = 0; i + 1 < out.length; i++) {
            if (out[i].contains("Error:")) {
                for (int k = 0; k < lines.length; k++) {
                    if (!lines[k].isBlank() && lines[k].strip().equals(out[i + 1].strip())) {
                        return new KernelException(kind, error.strip(), k + 1, lines[k], null);
                    }
                }
            }
        }
        return new KernelException(kind, error.isBlank() ? "nft failed without a message" : error.strip());
    }
}
