package io.kproxy.app;

import io.kproxy.history.HistoryException;
import io.kproxy.history.JournalReport;
import io.kproxy.history.Times;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code kproxy journal inspect DIR}: segments, time range, snapshots and records per event type ({@link JournalReport#inspect}). */
@Command(name = "inspect", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Segments, time range, snapshots and records per event type of a journal.",
                "TIME: RFC 3339 with a zone (2026-11-22T03:12:07Z), now, or -5m / -2h30m / -1d."},
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {HistoryExits.CODES_0, HistoryExits.CODES_1, HistoryExits.CODES_2, HistoryExits.CODES_5})
final class JournalInspectCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "The journal directory.")
    Path journal;

    @Option(names = "--from", paramLabel = "TIME", description = "Count the records accepted from this time (default: the first).")
    String from;

    @Option(names = "--to", paramLabel = "TIME", description = "... up to (not including) this time (default: after the last).")
    String to;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            Optional<Instant> lo = Optional.ofNullable(from).map(t -> Times.parse(t, Clock.systemUTC()));
            Optional<Instant> hi = Optional.ofNullable(to).map(t -> Times.parse(t, Clock.systemUTC()));
            out.print(JournalReport.inspect(journal, lo, hi));
            out.flush();
            return HistoryExits.OK;
        } catch (HistoryException e) {
            return HistoryExits.report(err, "journal inspect", e);
        } catch (RuntimeException e) {
            return HistoryExits.failed(err, "journal inspect", e);
        }
    }
}
