package io.kproxy.source.kube;

import io.kproxy.events.ResourceKind;
import java.util.Collection;
import java.util.Map;

/**
 * Reads the fingerprints of known objects from where the log keeps them, when the source first
 * needs them ({@link KnownObjects#deferred}): at a restart that resumes its watches, the
 * fingerprints of 200,000 objects at 100,000 Services serve only a later list, so they are not
 * read at start (docs/operations.md, "Restart").
 */
@FunctionalInterface
public interface FingerprintReader {

    /** Reads nothing: every key it is asked for is unreadable. */
    FingerprintReader NONE = (kind, keys) -> Map.of();

    /**
     * The fingerprints of those of {@code keys} (objects of {@code kind}) whose record the log
     * still holds; a key whose record cannot be read is left out (the source then records that
     * object once more, which is noise, never a wrong state). Blocks on the log's I/O.
     */
    Map<String, ObjectFingerprint> read(ResourceKind kind, Collection<String> keys);
}
