package io.kproxy.journal.kafka;

import io.kproxy.journal.spi.EventLogException;

/**
 * The Kafka log refused or failed: {@link #problem()} says exactly why, for a message and an
 * exit code; {@link #kind()} sorts it as every {@link EventLogException} (retryable or not).
 */
public final class KafkaLogException extends EventLogException {

    /** What went wrong, each with its {@link EventLogException.Kind}. */
    public enum Problem {
        /** No broker answered within the timeout (an unreachable bootstrap server, a broker down). Retryable. */
        UNREACHABLE(Kind.UNAVAILABLE),
        /** The topic (or its snapshot topic) does not exist: the log is not there. */
        MISSING_TOPIC(Kind.CLOSED),
        /** The topic exists but has more than one partition: the log would have no total order. */
        NOT_ONE_PARTITION(Kind.CORRUPT),
        /** A record carries another cluster's identity, or none: the topic is not this cluster's log. */
        FOREIGN_CLUSTER(Kind.CORRUPT),
        /** A record this build's codec cannot read (a newer format version, an unknown event type, damage). */
        UNKNOWN_RECORD(Kind.CORRUPT),
        /** Retention removed records a reader needs and no snapshot covers them. */
        PREFIX_REMOVED(Kind.CORRUPT),
        /** Another writer with the same transactional id started: this one is fenced and may not append. */
        FENCED(Kind.LOCKED),
        /** The broker refused the write for good (authorization, a record too large, a broken producer). */
        REFUSED(Kind.CLOSED);

        private final Kind kind;

        Problem(Kind kind) {
            this.kind = kind;
        }

        public Kind kind() {
            return kind;
        }
    }

    private final Problem problem;

    public KafkaLogException(Problem problem, String message, Throwable cause) {
        super(problem.kind(), problem + ": " + message, cause);
        this.problem = problem;
    }

    public KafkaLogException(Problem problem, String message) {
        this(problem, message, null);
    }

    public Problem problem() {
        return problem;
    }
}
