package io.kproxy.state;

/**
 * A snapshot could not be decoded: unknown format version, bad checksum, truncated data or a
 * value that fails validation. Unchecked, so that {@link FoldedState#fromSnapshot} keeps the
 * signature the engine codes against; the caller should catch it and fall back to an older
 * snapshot or to a fold from the start of the log.
 */
public final class SnapshotDecodeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public SnapshotDecodeException(String message) {
        super(message);
    }

    public SnapshotDecodeException(String message, Throwable cause) {
        super(message, cause);
    }
}
