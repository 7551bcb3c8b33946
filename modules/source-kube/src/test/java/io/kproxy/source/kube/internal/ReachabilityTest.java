package io.kproxy.source.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReachabilityTest {

    private final AtomicLong now = new AtomicLong();

    @Test
    void episodesStartAtTheFirstUnansweredRequestAndEndWithAnyAnswer() {
        Reachability r = new Reachability("https://10.0.0.1:6443", "anonymous", "", now::get);
        r.attempt();
        now.addAndGet(Reachability.NO_ANSWER_WARNING.toNanos() - 1);
        r.tick();
        assertThat(r.troubled()).as("not yet").isFalse();
        now.addAndGet(1);
        r.tick();
        assertThat(r.troubled()).isTrue();
        r.answered();
        assertThat(r.troubled()).isFalse();
        r.attempt();
        r.failed(new ApiFailure("connect-refused", "connection refused"));
        assertThat(r.troubled()).as("a failure reports at once").isTrue();
    }

    @Test
    void theInClusterServiceAddressGetsTheBootstrapHint(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("token"), "t\n");
        ClientSettings inCluster = InCluster.resolve(Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1", "KUBERNETES_SERVICE_PORT", "443"), dir);
        assertThat(Reachability.hintFor(inCluster)).contains("kubernetes Service address", "deploy/README.md");
        assertThat(Reachability.hintFor(ClientSettings.anonymous("--master", "https://10.0.0.1:6443"))).isEmpty();
    }
}
