package io.kproxy.config.loader;

/**
 * How much input kproxy reads, per kind of input file; documented in {@code docs/operations.md}
 * ("Input limits"). Every limit is checked before the expensive step it protects: the file size
 * before the file is read (and the read stops one byte past it), the nesting depth and the scalar
 * length while the text is parsed, so that no input, however large or deep, costs more than a
 * bounded amount of time and memory. Immutable.
 *
 * @param maxFileBytes   the largest file read, in bytes
 * @param maxScalarChars the longest string (scalar value or key), in characters
 * @param maxDepth       the deepest nesting of objects and arrays
 * @param maxNumberChars the longest number, in characters (Jackson's own default for JSON)
 */
public record TextLimits(int maxFileBytes, int maxScalarChars, int maxDepth, int maxNumberChars) {

    public TextLimits {
        if (maxFileBytes < 1 || maxScalarChars < 1 || maxDepth < 1 || maxNumberChars < 1) {
            throw new IllegalArgumentException("every limit must be positive");
        }
    }

    /**
     * A {@code KubeProxyConfiguration} ({@code --config}): a few KB in practice; 1 MiB, strings of
     * at most 64 KiB (the field rules of {@link io.kproxy.config.Validator} are far stricter), 32 levels (the type is 4 deep).
     */
    public static final TextLimits CONFIG = new TextLimits(1 << 20, 64 << 10, 32, 1000);

    /**
     * A file of Kubernetes objects ({@code render --objects}): 64 MiB per file (a
     * {@code kubectl get -o yaml} of about 20,000 Services and their EndpointSlices; split larger
     * dumps into several files), strings of at most 1 MiB (an object's annotations total at most
     * 256 KiB, apimachinery {@code TotalAnnotationSizeLimitB}; the API server takes requests of at
     * most 3 MiB), 64 levels.
     */
    public static final TextLimits OBJECTS = new TextLimits(64 << 20, 1 << 20, 64, 1000);

    /** A kubeconfig ({@code clientConnection.kubeconfig}), read by the API client: 4 MiB (a few KB each context with its certificates). */
    public static final int KUBECONFIG_MAX_BYTES = 4 << 20;
}
