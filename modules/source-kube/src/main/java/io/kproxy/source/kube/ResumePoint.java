package io.kproxy.source.kube;

import io.kproxy.events.ResourceKind;
import io.kproxy.model.InvalidValueException;
import java.util.EnumMap;
import java.util.Map;

/**
 * Where a source's watches stopped: for each kind it may resume, the resourceVersion up to which
 * every event of the kind is in the log, and the API server those versions came from. A source
 * gives it when it closes with everything appended ({@link KubeSource#resumePoint()}); the next
 * start of the same node hands it back through {@link KnownObjects#resumingAt}, and the source
 * then watches those kinds from there instead of listing them, where the API server still has
 * the versions (docs/operations.md, "Restart"). Immutable.
 *
 * @param server   the API server's address as the client was configured ("" for none)
 * @param versions kind to resourceVersion (unmodifiable copy; no empty version)
 */
public record ResumePoint(String server, Map<ResourceKind, String> versions) {

    /** Nothing to resume: every kind is listed. */
    public static final ResumePoint NONE = new ResumePoint("", Map.of());

    public ResumePoint {
        if (server == null || versions == null) {
            throw new IllegalArgumentException("server and versions are required");
        }
        for (Map.Entry<ResourceKind, String> e : versions.entrySet()) {
            if (e.getKey() == null || e.getValue() == null || e.getValue().isEmpty()) {
                throw new InvalidValueException("resumeVersion", String.valueOf(e.getValue()), "a kind and a resourceVersion are required");
            }
        }
        versions = versions.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(versions));
    }

    /** The version to resume {@code kind} at, "" when it is to be listed. */
    public String version(ResourceKind kind) {
        return versions.getOrDefault(kind, "");
    }
}
