package io.kproxy.netlink;

import io.kproxy.netns.NetnsThread;
import java.util.List;
import java.util.Optional;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Pointer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * nft in-process through libnftables: one {@code nft_ctx} created and used only on its own
 * {@link NetnsThread} (so it talks to that thread's network namespace), reused for every script.
 * A reused context costs a fraction of a millisecond per small transaction against tens of
 * milliseconds for an {@code nft} process (docs/kernel-floor.md item 4).
 *
 * <p>A context caches the kernel's objects and trusts that cache while the kernel's ruleset
 * generation is unchanged. A dry run or a refused transaction changes the cache (nft 1.0.6
 * evaluates the commands against it) but not the generation, so the next script would be
 * evaluated against objects that are not there (seen as "element does not exist" when deleting
 * an element a dry run had already deleted). Dry runs therefore use a throw-away context, and
 * the reused one is replaced after a refusal. Thread-safe; blocks.
 */
public final class LibNftExecutor implements NftExecutor {

    private static final Logger LOG = LoggerFactory.getLogger(LibNftExecutor.class);
    private static final List<String> CANDIDATES = List.of("nftables", "libnftables.so.1", "/usr/lib/x86_64-linux-gnu/libnftables.so.1",
            "/usr/lib/aarch64-linux-gnu/libnftables.so.1", "/usr/lib64/libnftables.so.1", "/usr/lib/libnftables.so.1");
    private static final int NFT_CTX_DEFAULT = 0;

    private static volatile LibNftables lib;

    private final NetnsThread thread;
    private Pointer ctx; // used and replaced on the thread only

    private LibNftExecutor(NetnsThread thread, Pointer ctx) {
        this.thread = thread;
        this.ctx = ctx;
    }

    /** The library, when it can be loaded on this machine. */
    public static Optional<LibNftables> library() {
        LibNftables l = lib;
        if (l != null) {
            return Optional.of(l);
        }
        for (String name : CANDIDATES) {
            try {
                l = LibraryLoader.create(LibNftables.class).failImmediately().load(name);
                lib = l;
                return Optional.of(l);
            } catch (LinkageError | RuntimeException e) {
                LOG.debug("libnftables not loadable name={} reason={}", name, e.toString());
            }
        }
        return Optional.empty();
    }

    /** An executor for the named namespace (or this process's own when empty); empty when libnftables is missing. */
    public static Optional<LibNftExecutor> open(Optional<String> netns) {
        Optional<LibNftables> l = library();
        if (l.isEmpty()) {
            return Optional.empty();
        }
        NetnsThread t = netns.map(n -> NetnsThread.enter(n, "nft")).orElseGet(() -> NetnsThread.current("nft"));
        try {
            Pointer ctx = t.call(() -> newContext(l.get()));
            return Optional.of(new LibNftExecutor(t, ctx));
        } catch (RuntimeException e) {
            t.close();
            throw e;
        }
    }

    private static Pointer newContext(LibNftables l) {
        Pointer c = l.nft_ctx_new(NFT_CTX_DEFAULT);
        if (c == null) {
            throw new IllegalStateException("nft_ctx_new returned NULL");
        }
        l.nft_ctx_buffer_output(c);
        l.nft_ctx_buffer_error(c);
        return c;
    }

    @Override
    public NftResult run(String script, boolean dryRun) {
        return thread.call(() -> {
            LibNftables l = lib;
            if (dryRun) {
                Pointer dry = newContext(l);
                try {
                    l.nft_ctx_set_dry_run(dry, true);
                    return runIn(l, dry, script);
                } finally {
                    l.nft_ctx_free(dry);
                }
            }
            NftResult r = runIn(l, ctx, script);
            if (!r.ok()) {
                l.nft_ctx_free(ctx);
                ctx = newContext(l);
            }
            return r;
        });
    }

    private NftResult runIn(LibNftables l, Pointer c, String script) {
        int rc = l.nft_run_cmd_from_buffer(c, script);
        // Reading a buffer also resets it for the next command.
        String out = l.nft_ctx_get_output_buffer(c);
        String err = l.nft_ctx_get_error_buffer(c);
        if (rc != 0) {
            err = locate(l, script, err);
        }
        return new NftResult(rc == 0, out, err);
    }

    /**
     * nft reading a buffer reports no line number (and 1.0.6 echoes the wrong line), while nft
     * reading a file prefixes {@code file:LINE:COL-COL:}. After a refusal, which left the kernel
     * unchanged, the script is checked again from a private temporary file, dry, to learn the line.
     */
    private static String locate(LibNftables l, String script, String bufferError) {
        java.nio.file.Path tmp = null;
        Pointer dry = newContext(l);
        try {
            tmp = java.nio.file.Files.createTempFile("kproxy-nft-", ".nft");
            java.nio.file.Files.writeString(tmp, script);
            l.nft_ctx_set_dry_run(dry, true);
            int rc = l.nft_run_cmd_from_filename(dry, tmp.toString());
            l.nft_ctx_get_output_buffer(dry);
            String located = l.nft_ctx_get_error_buffer(dry);
            return rc != 0 && located != null && !located.isBlank() ? located : bufferError;
        } catch (java.io.IOException e) {
            return bufferError;
        } finally {
            l.nft_ctx_free(dry);
            if (tmp != null) {
                try {
                    java.nio.file.Files.deleteIfExists(tmp);
                } catch (java.io.IOException e) {
                    LOG.debug("cannot delete {} reason={}", tmp, e.toString());
                }
            }
        }
    }

    @Override
    public String kind() {
        return "libnftables";
    }

    @Override
    public void close() {
        try {
            thread.call(() -> {
                lib.nft_ctx_free(ctx);
                return null;
            });
        } finally {
            thread.close();
        }
    }
}
