package io.kproxy.testkit.uml;

import java.time.Duration;

/**
 * What one User-Mode Linux run produced.
 *
 * @param exitCode the guest command's exit code; -1 when it never finished (timeout, crash)
 * @param output the command's standard output and error, interleaved as written
 * @param console the UML kernel's console (boot messages, module failures, the runner's marks)
 * @param bootTime host time from starting the UML process until the guest had loaded its modules
 *     and was about to run the command
 * @param commandTime host time the command ran (0 when it never started)
 * @param timedOut whether the runner killed the UML process at the deadline
 */
public record UmlResult(int exitCode, String output, String console, Duration bootTime, Duration commandTime, boolean timedOut) {

    public UmlResult {
        if (output == null || console == null || bootTime == null || commandTime == null) {
            throw new IllegalArgumentException("UmlResult fields are never null");
        }
    }

    /** The command's output, or throws with output and console tail when it did not exit 0. */
    public String requireSuccess() {
        if (exitCode == 0 && !timedOut) {
            return output;
        }
        String tail = console.length() > 4000 ? console.substring(console.length() - 4000) : console;
        throw new AssertionError("command inside UML " + (timedOut ? "timed out" : "exited " + exitCode) + "\n--- output ---\n" + output
                + "\n--- console (tail) ---\n" + tail);
    }
}
