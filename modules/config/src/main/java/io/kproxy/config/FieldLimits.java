package io.kproxy.config;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Length limits on the configuration's free-text fields: the ones no other rule bounds (upstream
 * checks none of them; each value is logged, recorded in the journal with every
 * {@code ConfigRecorded} and served on {@code /configz}, so an unbounded one costs at each of those).
 * Paths are limited to what Linux can open ({@code PATH_MAX}, 4096 bytes with the NUL) and may
 * not hold a NUL; anything else to 1,024 characters, far above any real value (a media-type list,
 * a Windows network name, a log file pattern, a feature gate's name). Fields with a stricter rule
 * of their own (addresses, CIDRs, interface names, the node name, the admin socket path, the IPVS
 * scheduler, the Kafka topic) are left to it. Documented in {@code docs/operations.md}, "Input limits".
 */
final class FieldLimits {

    /** Linux {@code PATH_MAX} less the terminating NUL. */
    static final int MAX_PATH_BYTES = 4095;
    static final int MAX_TEXT_CHARS = 1024;

    private FieldLimits() {
    }

    static void validate(List<FieldError> errs, ProxyConfig c) {
        path(errs, "clientConnection.kubeconfig", c.clientConnection().kubeconfig());
        path(errs, "kproxy.journalDir", c.kproxy().journalDir());
        text(errs, "clientConnection.acceptContentTypes", c.clientConnection().acceptContentTypes());
        text(errs, "clientConnection.contentType", c.clientConnection().contentType());
        text(errs, "kproxy.eventLog.kafka.bootstrapServers", c.kproxy().eventLog().kafka().bootstrapServers());
        text(errs, "kproxy.eventLog.kafka.clientId", c.kproxy().eventLog().kafka().clientId());
        text(errs, "kproxy.eventLog.kafka.cluster", c.kproxy().eventLog().kafka().cluster());
        text(errs, "winkernel.networkName", c.winkernel().networkName());
        text(errs, "winkernel.sourceVip", c.winkernel().sourceVip());
        text(errs, "winkernel.rootHnsEndpointName", c.winkernel().rootHnsEndpointName());
        for (int i = 0; i < c.logging().vmodule().size(); i++) {
            text(errs, "logging.vmodule[" + i + "].filePattern", c.logging().vmodule().get(i).filePattern());
        }
        for (Map.Entry<String, Boolean> gate : c.featureGates().entrySet()) {
            if (gate.getKey().length() > MAX_TEXT_CHARS) {
                errs.add(new FieldError("featureGates", gate.getKey(), "a feature gate's name must be at most " + MAX_TEXT_CHARS + " characters"));
            }
        }
    }

    private static void path(List<FieldError> errs, String field, String value) {
        if (value.indexOf('\0') >= 0) {
            errs.add(new FieldError(field, value, "must not contain a NUL character"));
        } else if (value.getBytes(StandardCharsets.UTF_8).length > MAX_PATH_BYTES) {
            errs.add(new FieldError(field, value, "must be at most " + MAX_PATH_BYTES + " bytes (Linux PATH_MAX)"));
        }
    }

    private static void text(List<FieldError> errs, String field, String value) {
        if (value.length() > MAX_TEXT_CHARS) {
            errs.add(new FieldError(field, value, "must be at most " + MAX_TEXT_CHARS + " characters"));
        }
    }
}
