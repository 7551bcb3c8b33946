package io.kproxy.app.node;

import io.kproxy.config.ProxyConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Upstream's node settings, applied once when the agent starts (docs/operations.md, "Node
 * settings"): the {@code conntrack} sysctls ({@link ConntrackSettings}) and then the process's
 * {@code oomScoreAdj} ({@link OomScoreAdj}) — upstream's order, conntrack in platformSetup
 * ({@code cmd/kube-proxy/app/server_linux.go}) while the server is built, the OOM score first in
 * ProxyServer.Run ({@code cmd/kube-proxy/app/server.go}), both before the health and metrics
 * servers listen and before the proxier is created (the iptables mode reads
 * {@code nf_conntrack_tcp_be_liberal} when it is created). One {@code key=value} line per knob.
 * Blocks on file I/O; call from one thread.
 */
public final class NodeSettings {

    private static final Logger LOG = LoggerFactory.getLogger(NodeSettings.class);

    private NodeSettings() {
    }

    /**
     * Applies the settings of {@code config} to the kernel behind {@code sys} and logs each.
     *
     * @return every knob's outcome, in the order applied
     * @throws IOException when a conntrack sysctl cannot be set (upstream's start fails there too)
     */
    public static List<Setting> applyAtStart(ProxyConfig config, Sysctls sys) throws IOException {
        List<Setting> all = new ArrayList<>();
        ConntrackSettings.apply(config.conntrack(), sys, s -> {
            log(s);
            all.add(s);
        });
        Setting oom = OomScoreAdj.apply(config.oomScoreAdj(), sys);
        log(oom);
        all.add(oom);
        return List.copyOf(all);
    }

    private static void log(Setting s) {
        if (s.warning()) {
            LOG.warn("decision=node-setting {}", s.logLine());
        } else {
            LOG.info("decision=node-setting {}", s.logLine());
        }
    }
}
