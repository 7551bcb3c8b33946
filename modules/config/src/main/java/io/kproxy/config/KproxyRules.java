package io.kproxy.config;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** Validation of the {@code kproxy} section (kproxy's own settings; no upstream counterpart). */
final class KproxyRules {

    /** Kafka's legal topic characters and length ({@code org.apache.kafka.common.internals.Topic}). */
    private static final Pattern TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,249}");
    /** {@code sizeof(sockaddr_un.sun_path) - 1} on Linux. */
    private static final int MAX_SOCKET_PATH = 107;
    /**
     * A group name as useradd/groupadd accept it (shadow-utils' default {@code NAME_REGEX}, with
     * upper case and dots as many distributions allow; at most 32 characters), or a numeric gid.
     */
    private static final Pattern GROUP = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,30}[A-Za-z0-9_.$-]?|[0-9]{1,10}");
    static final Duration MAX_FSYNC_WINDOW = Duration.ofSeconds(1);

    private KproxyRules() {
    }

    static void validate(List<FieldError> errs, KproxyConfig k) {
        if (!k.journalDir().startsWith("/") || k.journalDir().indexOf('\0') >= 0) {
            errs.add(new FieldError("kproxy.journalDir", k.journalDir(), "must be an absolute path"));
        }
        // The journal's group-commit window: the journal takes at most a second (JournalOptions); a
        // longer window would hold every append, and the sync waiting for it, past a sync period.
        if (!k.fsyncWindow().isPositive() || k.fsyncWindow().compareTo(MAX_FSYNC_WINDOW) > 0) {
            errs.add(new FieldError("kproxy.fsyncWindow", GoDuration.format(k.fsyncWindow()), "must be greater than 0 and at most 1s"));
        }
        if (k.snapshotInterval() < 100) {
            errs.add(new FieldError("kproxy.snapshotInterval", Long.toString(k.snapshotInterval()), "must be at least 100 records"));
        }
        Checks.positive(errs, "kproxy.retention.maxAge", k.retention().maxAge());
        if (k.retention().maxBytes() <= 0) {
            errs.add(new FieldError("kproxy.retention.maxBytes", Long.toString(k.retention().maxBytes()), "must be greater than 0"));
        }
        kafka(errs, k.eventLog());
        for (int i = 0; i < k.serviceCIDRs().size(); i++) {
            if (Checks.cidr(k.serviceCIDRs().get(i)).isEmpty()) {
                errs.add(new FieldError("kproxy.serviceCIDRs[" + i + "]", k.serviceCIDRs().get(i), "must be a valid CIDR"));
            }
        }
        adminSocket(errs, k.adminSocket());
        if (!k.adminGroup().isEmpty() && (!GROUP.matcher(k.adminGroup()).matches() || k.adminGroup().chars().allMatch(Character::isDigit)
                && Long.parseLong(k.adminGroup()) > 4_294_967_294L)) {
            errs.add(new FieldError("kproxy.adminGroup", k.adminGroup(), "must be a group name or a numeric gid (or empty: root only)"));
        }
    }

    private static void kafka(List<FieldError> errs, KproxyConfig.EventLogConfig log) {
        KproxyConfig.KafkaConfig kafka = log.kafka();
        boolean required = log.type() == KproxyConfig.EventLogType.KAFKA;
        String servers = kafka.bootstrapServers();
        if (servers.isEmpty()) {
            if (required) {
                errs.add(new FieldError("kproxy.eventLog.kafka.bootstrapServers", "", "required when eventLog.type is kafka"));
            }
        } else {
            for (String server : servers.split(",", -1)) {
                Optional<HostPort> hp = HostPort.split(server.strip());
                if (hp.isEmpty() || hp.get().host().isEmpty() || !Checks.validPort(hp.get().port())) {
                    errs.add(new FieldError("kproxy.eventLog.kafka.bootstrapServers", server, "must be a comma-separated list of host:port"));
                }
            }
        }
        if (required && kafka.cluster().isBlank()) {
            errs.add(new FieldError("kproxy.eventLog.kafka.cluster", kafka.cluster(),
                    "required when eventLog.type is kafka: the cluster's identity its topic's records carry"));
        }
        if (kafka.topic().isEmpty()) {
            if (required) {
                errs.add(new FieldError("kproxy.eventLog.kafka.topic", "", "required when eventLog.type is kafka"));
            }
        } else if (!TOPIC.matcher(kafka.topic()).matches() || kafka.topic().equals(".") || kafka.topic().equals("..")) {
            errs.add(new FieldError("kproxy.eventLog.kafka.topic", kafka.topic(),
                    "must be a Kafka topic name (1-249 of a-z, A-Z, 0-9, '.', '_', '-'; not '.' or '..')"));
        }
    }

    /**
     * Rollback and resume change the dataplane, so the endpoint is a Unix domain socket (file
     * permissions decide who may connect; a TCP port on loopback would let any local user in).
     * Its path must be absolute and fit {@code sockaddr_un.sun_path} (108 bytes with the NUL).
     */
    private static void adminSocket(List<FieldError> errs, String path) {
        if (!path.startsWith("/") || path.endsWith("/") || path.indexOf('\0') >= 0) {
            errs.add(new FieldError("kproxy.adminSocket", path, "must be an absolute path to a socket file (e.g. /run/kproxy/admin.sock)"));
        } else if (path.getBytes(StandardCharsets.UTF_8).length > MAX_SOCKET_PATH) {
            errs.add(new FieldError("kproxy.adminSocket", path, "must be at most " + MAX_SOCKET_PATH + " bytes (a Unix socket path)"));
        }
    }
}
