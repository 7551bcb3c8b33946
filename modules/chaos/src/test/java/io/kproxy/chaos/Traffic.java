package io.kproxy.chaos;

import io.kproxy.testkit.netns.Outcome;
import io.kproxy.testkit.netns.Probe;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * The client: real TCP connections from pod3 to Service IPs on port 80, one at a time, each
 * bounded by the probe's timeout, with a pause between them; stable Services and churned ones in
 * turn. A stable Service's connection that does not reach an echo server is reported to
 * {@code onStableFailure} (an invariant violation); a churned one's is only counted (its Service
 * may not exist at that moment). Runs on its own thread until {@link #stop()}.
 */
final class Traffic {

    enum ServiceClass { STABLE, CHURNED }

    private final Probe probe;
    private final List<String> stable;
    private final List<String> churned;
    private final BiConsumer<String, Outcome> onStableFailure;
    private final Random random;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong[] sent = {new AtomicLong(), new AtomicLong()};
    private final AtomicLong[] failed = {new AtomicLong(), new AtomicLong()};
    private Thread thread;

    Traffic(Probe probe, List<String> stable, List<String> churned, long seed, BiConsumer<String, Outcome> onStableFailure) {
        this.probe = probe;
        this.stable = List.copyOf(stable);
        this.churned = List.copyOf(churned);
        this.onStableFailure = onStableFailure;
        this.random = new Random(seed);
    }

    void start() {
        thread = Thread.ofPlatform().daemon().name("chaos-traffic").start(this::loop);
    }

    private void loop() {
        int i = 0;
        while (running.get()) {
            boolean isStable = i++ % 3 != 2;
            String ip = isStable ? stable.get(random.nextInt(stable.size())) : churned.get(random.nextInt(churned.size()));
            int c = isStable ? 0 : 1;
            Outcome o = probe.tcp(null, ip, 80);
            sent[c].incrementAndGet();
            if (o.kind() != Outcome.Kind.REPLY) {
                failed[c].incrementAndGet();
                if (isStable) {
                    onStableFailure.accept(ip, o);
                }
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    long sent(ServiceClass c) {
        return sent[c.ordinal()].get();
    }

    long failed(ServiceClass c) {
        return failed[c.ordinal()].get();
    }

    void stop() throws InterruptedException {
        running.set(false);
        if (thread != null) {
            thread.join(10_000);
        }
    }
}
