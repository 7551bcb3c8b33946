package io.kproxy.app.node;

import java.io.IOException;

/**
 * {@code oomScoreAdj} applied to this process, as upstream's ProxyServer.Run
 * ({@code cmd/kube-proxy/app/server.go}) with {@code pkg/util/oom/oom_linux.go}: the value is
 * written to {@code /proc/self/oom_score_adj} (the whole process: the kernel keeps it per thread
 * group), and a failure (lowering it needs CAP_SYS_RESOURCE) is only reported, never fatal.
 * Upstream has no "leave it" value here: 0 is written as 0. Stateless.
 */
public final class OomScoreAdj {

    private OomScoreAdj() {
    }

    /** Sets {@code wanted} through {@code sys}; never throws for an I/O failure, it reports it. */
    public static Setting apply(int wanted, Sysctls sys) {
        Knob k = Knob.OOM_SCORE_ADJ;
        try {
            long current = sys.read(k);
            if (current == wanted) {
                return new Setting.Kept(k, current, wanted, "already the configured value");
            }
            sys.write(k, wanted);
            return new Setting.Applied(k, current, wanted);
        } catch (IOException e) {
            return new Setting.Failed(k, wanted, ConntrackSettings.describe(e));
        }
    }
}
