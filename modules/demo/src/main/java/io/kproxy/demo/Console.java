package io.kproxy.demo;

import java.io.PrintWriter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * What the demo prints: timeline lines on standard output ({@code HH:mm:ss.SSS  text}, in the
 * history's time), and, when standard error is a terminal, a progress bar there that is cleared
 * before each line and redrawn after it (at most ten times a second). Thread-safe
 * (synchronized); never blocks on anything but the streams.
 */
final class Console {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);
    private static final int WIDTH = 30;

    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean bar;
    private String shownBar = "";
    private long lastDraw;

    /**
     * @param bar draw the progress bar (standard error is a terminal)
     */
    Console(PrintWriter out, PrintWriter err, boolean bar) {
        this.out = out;
        this.err = err;
        this.bar = bar;
    }

    static String time(Instant t) {
        return TIME.format(t);
    }

    /** A timeline line at history time {@code at}. */
    synchronized void event(Instant at, String text) {
        line(time(at) + "  " + text);
    }

    /** A line without a time (headings, commands, results). */
    synchronized void line(String text) {
        clearBar();
        out.println(text);
        out.flush();
        redraw();
    }

    /** A problem, on standard error. */
    synchronized void problem(String text) {
        clearBar();
        err.println("kproxy demo: " + text);
        err.flush();
        redraw();
    }

    /** Updates the bar: {@code done} of {@code total} records replayed, at history time {@code at}. */
    synchronized void progress(long done, long total, Instant at, long syncs) {
        if (!bar) {
            return;
        }
        long now = System.nanoTime();
        if (done < total && now - lastDraw < 100_000_000L) {
            return;
        }
        lastDraw = now;
        int filled = total == 0 ? WIDTH : (int) (WIDTH * done / total);
        shownBar = "[" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "] " + (total == 0 ? 100 : 100 * done / total) + "%  "
                + time(at) + "  records " + done + "/" + total + "  syncs " + syncs;
        redraw();
    }

    /** Removes the bar for good (the replay ended). */
    synchronized void endProgress() {
        clearBar();
        shownBar = "";
    }

    private void clearBar() {
        if (bar && !shownBar.isEmpty()) {
            err.print("\r\033[K");
            err.flush();
        }
    }

    private void redraw() {
        if (bar && !shownBar.isEmpty()) {
            err.print("\r" + shownBar);
            err.flush();
        }
    }
}
