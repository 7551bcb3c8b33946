package io.kproxy.app;

import io.kproxy.history.History;
import io.kproxy.history.HistoryException;
import java.io.Console;
import java.io.PrintWriter;

/**
 * The exit codes and error lines shared by the time-travel commands ({@code render --journal},
 * {@code diff}, {@code audit}, {@code journal}): every failure is one line on standard error and
 * a documented code, never a stack trace (docs/operations.md lists them).
 */
final class HistoryExits {

    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;
    static final int NOT_IN_JOURNAL = 4;
    static final int UNREADABLE = 5;

    /** For picocli's {@code exitCodeList}: the codes every time-travel command shares. */
    static final String CODES_0 = "0:done";
    static final String CODES_1 = "1:failed unexpectedly (a bug: the message says where)";
    static final String CODES_2 = "2:bad usage: a missing or conflicting option, a time that does not parse, an unknown mode";
    static final String CODES_4 = "4:not in the journal: a time before its first record, an offset past its end, an unknown Service";
    static final String CODES_5 = "5:the journal is missing, unreadable or damaged where the answer lies";

    private HistoryExits() {
    }

    static int report(PrintWriter err, String command, HistoryException e) {
        err.println("kproxy " + command + ": " + e.getMessage());
        err.flush();
        return switch (e.reason()) {
            case BAD_ARGUMENT -> USAGE;
            case NOT_IN_JOURNAL -> NOT_IN_JOURNAL;
            case UNREADABLE -> UNREADABLE;
        };
    }

    /** An unexpected failure: one line naming it, exit 1. */
    static int failed(PrintWriter err, String command, RuntimeException e) {
        StackTraceElement where = e.getStackTrace().length > 0 ? e.getStackTrace()[0] : null;
        err.println("kproxy " + command + ": failed: " + Terminal.text(e) + (where == null ? "" : " (at " + where + ")"));
        err.flush();
        return FAILED;
    }

    static void warnings(PrintWriter err, String command, History h) {
        h.warnings().forEach(w -> err.println("kproxy " + command + ": warning: " + Terminal.text(w)));
    }

    /**
     * Progress of a long replay on standard error, only when it is a terminal (so that captured
     * output stays deterministic): one line redrawn at most every 1% and erased at the end.
     */
    static History.Progress progress(PrintWriter err, String command) {
        Console console = System.console();
        if (console == null || !console.isTerminal()) {
            return History.Progress.NONE;
        }
        long[] shown = {-1};
        return (done, total) -> {
            long percent = total <= 0 ? 100 : done * 100 / total;
            if (percent != shown[0] && total > 5_000) {
                shown[0] = percent;
                err.print(percent >= 100 ? "\r\033[K" : "\rkproxy " + command + ": replaying " + done + "/" + total + " records (" + percent + "%)");
                err.flush();
            }
        };
    }
}
