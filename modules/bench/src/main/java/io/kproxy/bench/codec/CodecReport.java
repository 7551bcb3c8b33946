package io.kproxy.bench.codec;

import io.kproxy.events.Envelope;
import io.kproxy.events.EventCodec;
import java.util.Collection;
import java.util.Locale;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link CodecBenchmark} (JMH command-line options pass through, e.g. {@code -f 1 -wi 2 -i 3})
 * and prints the sizes and a records/s + MB/s table for docs/benchmarks.md.
 */
public final class CodecReport {

    private CodecReport() {
    }

    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        printSizes("slice", CodecSamples.slice());
        printSizes("service", CodecSamples.service());
        CommandLineOptions cli = new CommandLineOptions(args);
        Collection<RunResult> results = new Runner(new OptionsBuilder().parent(cli).include(CodecBenchmark.class.getName()).build()).run();
        System.out.println();
        System.out.println("| record | operation | records/s | MB/s (of the bytes it reads or writes) |");
        System.out.println("|---|---|---:|---:|");
        for (RunResult r : results) {
            String record = r.getParams().getParam("record");
            String op = r.getParams().getBenchmark().substring(r.getParams().getBenchmark().lastIndexOf('.') + 1);
            Envelope e = record.equals("slice") ? CodecSamples.slice() : CodecSamples.service();
            int bytes = op.startsWith("jackson") ? CompactJson.envelope(e).length : EventCodec.encode(e).length;
            double ops = r.getPrimaryResult().getScore();
            System.out.printf(Locale.ROOT, "| %s | %s | %,.0f ± %,.0f | %.1f |%n", record, op, ops, r.getPrimaryResult().getScoreError(),
                    ops * bytes / 1e6);
        }
    }

    private static void printSizes(String name, Envelope e) {
        int binary = EventCodec.encode(e).length;
        int json = CompactJson.envelope(e).length;
        int object = CompactJson.object(CompactJson.observedObject(e)).length;
        System.out.printf(Locale.ROOT, "%s: binary v1 %d bytes, compact JSON of the same record %d bytes (object alone %d), ratio %.2f%n",
                name, binary, json, object, (double) binary / json);
    }
}
