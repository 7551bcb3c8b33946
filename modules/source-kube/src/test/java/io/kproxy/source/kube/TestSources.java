package io.kproxy.source.kube;

import io.kproxy.model.NodeName;
import java.time.Duration;

/** Test-only: source options against a {@link ScriptedApiServer}, with short timings. */
final class TestSources {

    static final String NODE = "node-a";

    private TestSources() {
    }

    /** Pages of 2, watch reconnects from 200 ms, a watchdog that will not fire within a test. */
    static KubeSourceOptions options(ScriptedApiServer api) {
        return KubeSourceOptions.defaults(new NodeName(NODE))
                .withMasterUrl(api.url())
                .withListPageSize(2)
                .withWatchReconnectInterval(Duration.ofMillis(200))
                .withWatchdog(Duration.ofMillis(100), Duration.ofSeconds(60), Duration.ofSeconds(120))
                .withAppendBackoff(Duration.ofMillis(20), Duration.ofMillis(200));
    }
}
