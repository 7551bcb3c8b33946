package io.kproxy.netlink;

/**
 * Runs {@code nft -f} scripts. Implementations block until nft answered and are thread-safe
 * (the in-process one serialises calls onto its own thread).
 */
public interface NftExecutor extends AutoCloseable {

    /** Runs {@code script}; with {@code dryRun} nothing is committed ({@code nft --check}). */
    NftResult run(String script, boolean dryRun);

    /** Runs a listing command ({@code list table ip kube-proxy}, ...) and returns nft's output. */
    default NftResult list(String command) {
        return run(command, false);
    }

    /** How this executor reaches nft: {@code libnftables} or {@code nft-command}. */
    String kind();

    @Override
    void close();
}
