package io.kproxy.netlink;

/**
 * What {@code nft} said about one script: success, and its output and error text (nft's own
 * messages, {@code <source>:LINE:COL-COL: Error: ...} on failure).
 */
public record NftResult(boolean ok, String output, String error) {

    public NftResult {
        output = output == null ? "" : output;
        error = error == null ? "" : error;
    }
}
