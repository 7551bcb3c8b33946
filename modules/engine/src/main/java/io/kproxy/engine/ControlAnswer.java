package io.kproxy.engine;

/**
 * The answer of a {@link DataplaneControl} request. Immutable; no null components.
 */
public sealed interface ControlAnswer permits ControlAnswer.Done, ControlAnswer.Refused, ControlAnswer.Failed {

    /** What an operator reads. */
    String message();

    /** The request did what it asked; {@code status} is the state after it. */
    record Done(String message, DataplaneStatus status) implements ControlAnswer {
        public Done {
            if (message == null || status == null) {
                throw new IllegalArgumentException("message and status are required");
            }
        }
    }

    /**
     * The request was refused before anything was appended: bad input or the wrong state.
     *
     * @param code a stable word for scripts: {@code before-journal}, {@code in-future},
     *             {@code bad-offset}, {@code not-synced}, {@code unavailable}, {@code not-pinned}
     */
    record Refused(String code, String message) implements ControlAnswer {
        public Refused {
            if (code == null || message == null) {
                throw new IllegalArgumentException("code and message are required");
            }
        }
    }

    /**
     * The control record was appended (or the append itself failed), but the dataplane does not
     * (yet) hold what was asked: the sync failed, or none completed in time.
     */
    record Failed(String message, DataplaneStatus status) implements ControlAnswer {
        public Failed {
            if (message == null || status == null) {
                throw new IllegalArgumentException("message and status are required");
            }
        }
    }
}
