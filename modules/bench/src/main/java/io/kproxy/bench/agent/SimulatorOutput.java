package io.kproxy.bench.agent;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@link ClusterSimulator}'s standard output, read on a daemon thread so that waiting for one of
 * its words ({@code READY}, {@code DONE}) has a time limit: a simulator that stops answering
 * ends the run with a message instead of holding it forever. The simulator's own measurements
 * (its {@code loaded} and {@code warm-up} lines) are echoed as they pass. {@link #await} is for
 * one thread at a time.
 */
final class SimulatorOutput {

    private static final String END = "\u0000end";

    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    SimulatorOutput(InputStream out) {
        Thread.ofPlatform().daemon().name("simulator-output").start(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(out, StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // the simulator is gone; END says so
            }
            lines.add(END);
        });
    }

    /** Waits for a line equal to {@code word}; throws when the simulator ends first or {@code max} passes. */
    void await(String word, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        while (true) {
            String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new IllegalStateException("the simulator did not print " + word + " within " + max);
            }
            if (line.equals(END)) {
                lines.add(END);
                throw new IllegalStateException("the simulator ended before " + word);
            }
            if (line.equals(word)) {
                return;
            }
            if (line.startsWith("warm-up") || line.startsWith("loaded")) {
                System.out.println("  API server " + line);
            }
        }
    }
}
