package io.kproxy.netlink;

import jnr.ffi.Pointer;

/**
 * The part of libnftables' API ({@code nftables/libnftables.h}, Debian libnftables1) we call.
 * Public only because jnr-ffi implements it from outside this module; use {@link NftExecutor}.
 */
public interface LibNftables {

    Pointer nft_ctx_new(int flags);

    void nft_ctx_free(Pointer ctx);

    int nft_run_cmd_from_buffer(Pointer ctx, String buffer);

    int nft_run_cmd_from_filename(Pointer ctx, String filename);

    int nft_ctx_buffer_output(Pointer ctx);

    int nft_ctx_buffer_error(Pointer ctx);

    String nft_ctx_get_output_buffer(Pointer ctx);

    String nft_ctx_get_error_buffer(Pointer ctx);

    void nft_ctx_set_dry_run(Pointer ctx, boolean dry);

    void nft_ctx_output_set_flags(Pointer ctx, int flags);
}
