package io.kproxy.config;

import io.kproxy.model.IpAddress;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** Validation of the {@code kproxy} section (kproxy's own settings; no upstream counterpart). */
final class KproxyRules {

    /** Kafka's legal topic characters and length ({@code org.apache.kafka.common.internals.Topic}). */
    private static final Pattern TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

    private KproxyRules() {
    }

    static void validate(List<FieldError> errs, KproxyConfig k) {
        if (!k.journalDir().startsWith("/") || k.journalDir().indexOf('\0') >= 0) {
            errs.add(new FieldError("kproxy.journalDir", k.journalDir(), "must be an absolute path"));
        }
        Checks.positive(errs, "kproxy.fsyncWindow", k.fsyncWindow());
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
        adminAddress(errs, k.adminAddress());
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
        if (kafka.topic().isEmpty()) {
            if (required) {
                errs.add(new FieldError("kproxy.eventLog.kafka.topic", "", "required when eventLog.type is kafka"));
            }
        } else if (!TOPIC.matcher(kafka.topic()).matches() || kafka.topic().equals(".") || kafka.topic().equals("..")) {
            errs.add(new FieldError("kproxy.eventLog.kafka.topic", kafka.topic(),
                    "must be a Kafka topic name (1-249 of a-z, A-Z, 0-9, '.', '_', '-'; not '.' or '..')"));
        }
    }

    /** Rollback and resume change the dataplane: the endpoint must never listen beyond the node. */
    private static void adminAddress(List<FieldError> errs, String address) {
        int before = errs.size();
        Optional<IpAddress> ip = Checks.hostPort(errs, "kproxy.adminAddress", address);
        if (errs.size() == before && ip.isPresent() && !ip.get().isLoopback()) {
            errs.add(new FieldError("kproxy.adminAddress", address, "must be a loopback IP:port (e.g. 127.0.0.1:10257 or [::1]:10257)"));
        }
    }
}
