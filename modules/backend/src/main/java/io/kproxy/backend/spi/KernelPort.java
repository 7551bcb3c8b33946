package io.kproxy.backend.spi;

import io.kproxy.backend.KernelException;

/**
 * The only door to the kernel's packet-filter rules: applies a transaction's text atomically.
 * Implementations block until the kernel answered; one caller at a time unless stated otherwise.
 */
public interface KernelPort {

    /** Applies {@code text} atomically, or throws and leaves the kernel unchanged. */
    void apply(String text) throws KernelException;

    /** Validates {@code text} against the kernel without committing it ({@code nft --check}). */
    void check(String text) throws KernelException;
}
