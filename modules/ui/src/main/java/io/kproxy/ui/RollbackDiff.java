package io.kproxy.ui;

import io.kproxy.history.Point;
import java.util.ArrayList;
import java.util.List;

/**
 * The diff of a rollback, said the way it happened. A pinned sync programs an older state than
 * the sync before it, and {@code History.diff} compares an earlier offset with a later one only;
 * so the page asks it for the diff from the pinned state to the replaced one (whose records are
 * exactly those the rollback took out of the dataplane) and turns it around here: {@code +} and
 * {@code -} swapped, the header naming the two syncs in the order they ran, "caused by" read as
 * "undone". Pure.
 */
final class RollbackDiff {

    private RollbackDiff() {
    }

    static String invert(String forward, Point replaced, Point pinned, String pin) {
        List<String> out = new ArrayList<>();
        boolean header = true;
        for (String line : forward.split("\n", -1)) {
            if (header && line.startsWith("from ")) {
                out.add("from " + replaced.describe());
            } else if (header && line.startsWith("to   ")) {
                out.add("to   " + pinned.describe());
                out.add("a rollback: " + pin + "; the records between the two states are no longer programmed");
            } else if (line.startsWith("== ")) {
                header = false;
                out.add(line);
            } else if (!header && line.startsWith("+ ")) {
                out.add("- " + line.substring(2));
            } else if (!header && line.startsWith("- ")) {
                out.add("+ " + line.substring(2));
            } else if (!header && line.equals("caused by:")) {
                out.add("undone by the rollback (records no longer programmed):");
            } else {
                out.add(line);
            }
        }
        return String.join("\n", out);
    }
}
