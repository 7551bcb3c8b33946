package io.kproxy.source.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kproxy.events.ResourceKind;
import io.kproxy.journal.MemoryEventLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** While the log refuses appends (a full disk) the source holds back and retries; nothing is dropped or reordered. */
class DiskFullIT {

    @Test
    void refusedAppendsAreRetriedInOrder() throws Exception {
        try (ScriptedApiServer api = ScriptedApiServer.start();
             MemoryEventLog memory = new MemoryEventLog();
             RefusingEventLog log = new RefusingEventLog(memory)) {
            Kube.create(api.client(), Kube.service("a", "10.96.0.1", Map.of()));
            try (KubeSource source = KubeSource.create(TestSources.options(api).withQueue(4, 2), log, KnownObjects.empty())) {
                source.start();
                source.synced().get(30, TimeUnit.SECONDS);
                long mark = memory.nextOffset();

                log.full(true);
                List<String> expected = new ArrayList<>();
                for (int i = 0; i < 12; i++) {
                    Kube.create(api.client(), Kube.service("s-" + i, "10.96.1." + i, Map.of()));
                    expected.add("observed ns1/s-" + i);
                }
                await().atMost(30, TimeUnit.SECONDS).until(() -> source.state().queueDepth() >= 4 && log.refused() >= 3);
                SourceState held = source.state();
                assertThat(memory.nextOffset()).isEqualTo(mark);
                assertThat(held.appendRetries()).isGreaterThanOrEqualTo(2);
                assertThat(held.lastError()).contains("no space left");
                assertThat(held.failed()).isFalse();

                log.full(false);
                await().atMost(30, TimeUnit.SECONDS).until(() -> LogView.of(memory, ResourceKind.SERVICE, mark).size() == 12);
                assertThat(LogView.of(memory, ResourceKind.SERVICE, mark)).containsExactlyElementsOf(expected);
                await().atMost(30, TimeUnit.SECONDS).until(() -> source.state().queueDepth() == 0);
                System.out.println("disk-full state=" + source.state() + " refused=" + log.refused());
            }
        }
    }
}
