package io.kproxy.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * {@code logging}: component-base's {@code LoggingConfiguration}
 * ({@code staging/src/k8s.io/component-base/logs/api/v1/types.go}), accepted with upstream's
 * field names so that upstream files load. kproxy honours {@code format} and {@code verbosity};
 * the other fields are kept (and recorded) but have no effect on SLF4J output. Immutable; no null
 * components.
 *
 * @param format         {@code text} (default) or {@code json}
 * @param flushFrequency maximum time between log flushes (default 5s)
 * @param verbosity      klog-style threshold, 0 (default) logs only the most important messages
 * @param vmodule        per-file verbosity overrides (text format only)
 * @param options        format-specific options
 */
public record LoggingConfig(String format, Duration flushFrequency, int verbosity, List<VModuleItem> vmodule, FormatOptions options) {

    public LoggingConfig {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(flushFrequency, "flushFrequency");
        vmodule = List.copyOf(vmodule);
        Objects.requireNonNull(options, "options");
    }

    /** One {@code vmodule} entry: a file name or glob pattern and its verbosity threshold. */
    public record VModuleItem(String filePattern, int verbosity) {
        public VModuleItem {
            Objects.requireNonNull(filePattern, "filePattern");
        }
    }

    /** {@code options}: settings of the {@code text} and {@code json} formats. */
    public record FormatOptions(OutputRouting text, OutputRouting json) {
        public FormatOptions {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(json, "json");
        }
    }

    /**
     * {@code splitStream} and {@code infoBufferSize} of one format.
     *
     * @param infoBufferSize a Kubernetes quantity ({@code "0"}, {@code "64Ki"}), kept as written
     */
    public record OutputRouting(boolean splitStream, String infoBufferSize) {
        public OutputRouting {
            Objects.requireNonNull(infoBufferSize, "infoBufferSize");
        }
    }
}
