package io.kproxy.app.node;

import java.util.Objects;

/**
 * What happened to one node setting at start: one of these per knob, each logged as one
 * {@code key=value} line ({@link #logLine()}). Immutable values; a closed set.
 */
public sealed interface Setting {

    Knob knob();

    /** The log line's fields after {@code decision=node-setting}. */
    String logLine();

    /** Whether the line is a warning: kproxy wanted a value it could not set. */
    default boolean warning() {
        return this instanceof Refused || this instanceof Failed;
    }

    /** Written: the kernel had {@code from}, now has {@code to}. */
    record Applied(Knob knob, long from, long to) implements Setting {
        public Applied {
            Objects.requireNonNull(knob, "knob");
        }

        @Override
        public String logLine() {
            return "action=applied setting=" + knob.displayName() + " from=" + from + " to=" + to;
        }
    }

    /** Left as it is: the kernel's value already satisfies the configuration. */
    record Kept(Knob knob, long current, long wanted, String reason) implements Setting {
        public Kept {
            Objects.requireNonNull(knob, "knob");
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public String logLine() {
            return "action=kept setting=" + knob.displayName() + " current=" + current + " wanted=" + wanted + " reason=\"" + quoted(reason) + "\"";
        }
    }

    /** Not wanted: the configuration leaves this knob to the node (a zero or false value). */
    record Skipped(Knob knob, String reason) implements Setting {
        public Skipped {
            Objects.requireNonNull(knob, "knob");
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public String logLine() {
            return "action=skipped setting=" + knob.displayName() + " reason=\"" + quoted(reason) + "\"";
        }
    }

    /** Wanted but not permitted here, by a rule known in advance (not the initial network namespace, /sys read-only). */
    record Refused(Knob knob, long current, long wanted, String reason) implements Setting {
        public Refused {
            Objects.requireNonNull(knob, "knob");
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public String logLine() {
            return "action=refused setting=" + knob.displayName() + " current=" + current + " wanted=" + wanted + " reason=\"" + quoted(reason)
                    + "\"";
        }
    }

    /** Tried and failed, where upstream only logs the failure ({@code oomScoreAdj}). */
    record Failed(Knob knob, long wanted, String error) implements Setting {
        public Failed {
            Objects.requireNonNull(knob, "knob");
            Objects.requireNonNull(error, "error");
        }

        @Override
        public String logLine() {
            return "action=failed setting=" + knob.displayName() + " wanted=" + wanted + " error=\"" + quoted(error) + "\"";
        }
    }

    /** A text fit for a quoted log value: no quote, backslash or control character survives. */
    private static String quoted(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            if (c == '"' || c == '\\') {
                sb.append('\'');
            } else if (Character.isISOControl(c)) {
                sb.append(' ');
            } else {
                sb.appendCodePoint(c);
            }
        });
        return sb.toString();
    }
}
