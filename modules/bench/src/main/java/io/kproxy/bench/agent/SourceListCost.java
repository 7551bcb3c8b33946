package io.kproxy.bench.agent;

import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.LocalJournal;
import io.kproxy.model.NodeName;
import io.kproxy.source.kube.KnownObjects;
import io.kproxy.source.kube.KubeSource;
import io.kproxy.source.kube.KubeSourceOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The source's own share of the agent's cold start: a fresh JVM builds {@link KubeSource} against
 * a running {@link ClusterSimulator} and lists everything into an empty journal in a temporary
 * directory, with no engine, fold or backend competing. Prints the time to build the client and
 * the time from the informers' start until every kind's first list is durable, with the journal's
 * progress every 250 ms. Nothing is programmed; the simulator may run on the host's loopback.
 *
 * <p>Usage: {@code SourceListCost <master-url>}; run it with the agent's JVM options
 * ({@code -Xmx320m -XX:+UseSerialGC}) and the simulator quiet (a source's watches that close
 * hold up the mock's event loop for several seconds, so one run per simulator start, or a pause
 * between runs).
 */
public final class SourceListCost {

    private SourceListCost() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("kproxy-bench-source-");
        try (LocalJournal log = LocalJournal.open(JournalOptions.defaults(dir))) {
            long t0 = System.nanoTime();
            try (KubeSource source = KubeSource.create(KubeSourceOptions.defaults(new NodeName(SyntheticObjects.NODE))
                    .withMasterUrl(args[0]), log, KnownObjects.empty())) {
                long t1 = System.nanoTime();
                source.start();
                Thread progress = Thread.ofPlatform().daemon().start(() -> {
                    try {
                        while (true) {
                            Thread.sleep(250);
                            System.out.printf("  %.2f s: %,d records%n", (System.nanoTime() - t1) / 1e9, log.nextOffset());
                        }
                    } catch (InterruptedException e) {
                        // done
                    }
                });
                source.synced().get(5, TimeUnit.MINUTES);
                long t2 = System.nanoTime();
                progress.interrupt();
                System.out.printf("client built in %d ms; lists durable %.2f s after start (%,d records)%n", (t1 - t0) / 1_000_000,
                        (t2 - t1) / 1e9, log.nextOffset());
            }
        } finally {
            AgentScaleBench.deleteTree(dir);
        }
    }
}
