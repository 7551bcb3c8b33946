package io.kproxy.app;

import io.kproxy.sample.SampleHistories;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kproxy samples generate --out DIR}: (re)writes the recorded sample history
 * events/samples/cluster-hour ({@link SampleHistories}) and prints its documented moments as the
 * README's table. Hidden: a maintainer's tool, not an operator's.
 */
@Command(name = "samples", hidden = true, mixinStandardHelpOptions = true, description = "Generate the recorded sample histories.")
final class SamplesCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "generate", description = "What to do (only generate).")
    String action;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where to write the journal (events/samples/cluster-hour).")
    Path out;

    @Option(names = "--force", description = "Replace the journal files already in DIR (other files are kept).")
    boolean force;

    @Override
    public Integer call() throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!action.equals("generate")) {
            err.println("kproxy samples: unknown action " + action + " (only generate)");
            return HistoryExits.USAGE;
        }
        if (force) {
            SampleHistories.clearJournal(out);
        }
        try {
            List<SampleHistories.Moment> moments = SampleHistories.generateClusterHour(out);
            stdout.println("| time (UTC) | offset | event | object | what happens |");
            stdout.println("|---|---|---|---|---|");
            moments.forEach(m -> stdout.println(m.row()));
            stdout.flush();
            return HistoryExits.OK;
        } catch (IllegalArgumentException e) {
            err.println("kproxy samples: " + e.getMessage() + (force ? "" : " (--force replaces the journal files in it)"));
            return HistoryExits.USAGE;
        }
    }
}
