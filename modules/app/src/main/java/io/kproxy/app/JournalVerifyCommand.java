package io.kproxy.app;

import io.kproxy.history.HistoryException;
import io.kproxy.history.JournalReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code kproxy journal verify DIR}: every checksum, record, offset, time, index and snapshot ({@link JournalReport#verify}). */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = "Check every checksum, record, offset, time, index and snapshot of a journal; list each problem with its file, byte "
                + "position and offsets.",
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:the journal is sound", HistoryExits.CODES_1, HistoryExits.CODES_2,
                "5:the journal is missing, or has problems (listed on standard output)"})
final class JournalVerifyCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "The journal directory.")
    Path journal;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            JournalReport.Verification v = JournalReport.verify(journal);
            out.print(v.text());
            out.flush();
            return v.sound() ? HistoryExits.OK : HistoryExits.UNREADABLE;
        } catch (HistoryException e) {
            return HistoryExits.report(err, "journal verify", e);
        } catch (RuntimeException e) {
            return HistoryExits.failed(err, "journal verify", e);
        }
    }
}
