package io.kproxy.bench.iptables;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * One variant's measurement under a time limit ({@link IptablesScaleBench}): it runs on its own
 * thread; when the limit passes first, the namespace's progress is read ({@code progress}: how
 * many Service chains it holds), every process this JVM started is ended (the backend's and the
 * bench's {@code iptables-restore} runs; nothing else is a child of the bench), and the
 * measurement thread is interrupted, so that a run at a size where the kernel is slow ends with
 * "where it stood" instead of hours later. A measurement that fails is reported (its exception
 * on one line) and does not end the bench. Blocks the caller; for one variant at a time.
 */
final class Bounded {

    private Bounded() {
    }

    static void run(String variant, Duration limit, Callable<Void> measure, LongSupplier progress, int services) throws Exception {
        long start = System.nanoTime();
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread worker = Thread.ofPlatform().name("measure-" + variant).start(() -> {
            try {
                done.complete(measure.call());
            } catch (Exception | Error e) {
                done.completeExceptionally(e);
            }
        });
        long deadline = start + limit.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            try {
                done.get(Math.max(1, Math.min(left, Duration.ofMinutes(5).toNanos())), TimeUnit.NANOSECONDS);
                return;
            } catch (ExecutionException e) {
                // A variant the kernel refuses is a result (iptables-legacy at 100,000 Services:
                // docs/benchmarks.md); the next variant still runs.
                System.out.printf("[%s] failed after %.0f s: %s%n", variant, (System.nanoTime() - start) / 1e9,
                        String.valueOf(e.getCause()).replace('\n', ' '));
                return;
            } catch (TimeoutException e) {
                if (System.nanoTime() < deadline) {
                    System.out.printf("[%s] still running after %.0f s%n", variant, (System.nanoTime() - start) / 1e9);
                    continue;
                }
            }
            long chains = progress.getAsLong();
            ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
            worker.interrupt();
            worker.join(Duration.ofMinutes(1));
            System.out.printf("[%s] stopped at the limit of %s: the namespace held %,d of %,d Services' KUBE-SVC chains (%.1f %%);"
                    + " the steps printed above finished%n", variant, limit, chains, services, 100.0 * chains / services);
            return;
        }
    }
}
