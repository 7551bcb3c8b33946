package io.kproxy.source.kube;

import java.util.Objects;

/**
 * One Kubernetes Event to record, in the terms of {@code events.k8s.io/v1} (client-go's
 * {@code EventRecorder.Eventf(regarding, related, type, reason, action, note)}; kproxy records
 * none with a {@code related} object, as upstream kube-proxy). Immutable.
 *
 * @param type      Normal or Warning
 * @param reason    upstream's reason, e.g. {@code Starting}; 1 to 128 characters
 * @param action    upstream's action, e.g. {@code StartKubeProxy}; 1 to 128 characters
 * @param note      the human-readable text, "" allowed (upstream's {@code Starting} has none);
 *                  cut to the API's 1 kB limit when written
 * @param regarding the object the Event is about
 */
public record ApiEvent(Type type, String reason, String action, String note, ObjectRef regarding) {

    /** The two event types the API accepts. */
    public enum Type {
        NORMAL("Normal"), WARNING("Warning");

        private final String apiName;

        Type(String apiName) {
            this.apiName = apiName;
        }

        /** As written to the API. */
        public String apiName() {
            return apiName;
        }
    }

    public ApiEvent {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(note, "note");
        Objects.requireNonNull(regarding, "regarding");
        checkWord("reason", reason);
        checkWord("action", action);
    }

    private static void checkWord(String field, String value) {
        if (value == null || value.isEmpty() || value.length() > 128) {
            throw new IllegalArgumentException("an event's " + field + " must have 1 to 128 characters");
        }
    }

    /** A Normal event. */
    public static ApiEvent normal(String reason, String action, String note, ObjectRef regarding) {
        return new ApiEvent(Type.NORMAL, reason, action, note, regarding);
    }

    /** A Warning event. */
    public static ApiEvent warning(String reason, String action, String note, ObjectRef regarding) {
        return new ApiEvent(Type.WARNING, reason, action, note, regarding);
    }
}
