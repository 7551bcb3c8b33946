package io.kproxy.source.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kproxy.events.ResourceKind;
import io.kproxy.journal.MemoryEventLog;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A source restarted over an existing log appends nothing when nothing changed, and only the differences otherwise. */
class SourceRestartIT {

    private ScriptedApiServer api;
    private MemoryEventLog log;

    @BeforeEach
    void setUp() throws Exception {
        api = ScriptedApiServer.start();
        log = new MemoryEventLog();
        KubernetesClient c = api.client();
        Kube.create(c, Kube.service("a", "10.96.0.1", Map.of()));
        Kube.create(c, Kube.service("b", "10.96.0.2", Map.of()));
        Kube.create(c, Kube.service("c", "10.96.0.3", Map.of()));
        Kube.create(c, Kube.slice("a-1", "a", "10.244.0.1", Map.of()));
        Kube.create(c, Kube.node(TestSources.NODE));
        runUntilSynced();
    }

    @AfterEach
    void tearDown() {
        api.close();
        log.close();
    }

    /** Starts a source over the log as it stands, waits for its first lists to be durable, stops it. */
    private void runUntilSynced() throws Exception {
        try (KubeSource source = KubeSource.create(TestSources.options(api), log, LogScan.read(log))) {
            source.start();
            source.synced().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void nothingChangedNothingAppended() throws Exception {
        long before = log.nextOffset();
        assertThat(LogView.all(log, 0)).contains("synced SERVICE", "synced ENDPOINT_SLICE", "synced NODE");

        runUntilSynced();
        runUntilSynced();

        assertThat(log.nextOffset()).isEqualTo(before);
    }

    @Test
    void onlyTheDifferencesAreAppended() throws Exception {
        KubernetesClient c = api.client();
        Kube.labelService(c, "a", "tier", "front");
        Kube.deleteService(c, "b");
        Kube.create(c, Kube.service("d", "10.96.0.4", Map.of()));
        c.nodes().withName(TestSources.NODE).delete();
        long before = log.nextOffset();

        runUntilSynced();

        assertThat(LogView.of(log, ResourceKind.SERVICE, before)).containsExactlyInAnyOrder(
                "observed ns1/a", "observed ns1/d", "deleted? ns1/b", "relisted SERVICE [ns1/a, ns1/c, ns1/d]");
        assertThat(LogView.of(log, ResourceKind.SERVICE, before).getLast()).startsWith("relisted SERVICE");
        assertThat(LogView.of(log, ResourceKind.NODE, before)).containsExactly("deleted? node-a", "relisted NODE []");
        assertThat(LogView.of(log, ResourceKind.ENDPOINT_SLICE, before)).isEmpty();
        assertThat(log.nextOffset() - before).isEqualTo(6);

        long after = log.nextOffset();
        runUntilSynced();
        assertThat(log.nextOffset()).as("a second restart finds nothing new").isEqualTo(after);
    }
}
