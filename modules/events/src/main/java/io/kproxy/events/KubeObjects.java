package io.kproxy.events;

import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;
import io.kproxy.model.Names;
import io.kproxy.model.Printable;

/**
 * What an observation keeps of an API object: all of it, minus {@code metadata.managedFields}
 * and the {@code kubectl.kubernetes.io/last-applied-configuration} annotation (large, and never
 * read by a proxy).
 */
public final class KubeObjects {

    /** The annotation {@code kubectl apply} writes; dropped from observations. */
    public static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    private KubeObjects() {
    }

    /** {@code object} without managed fields and the last-applied annotation (itself when it has neither). */
    public static Json.Obj trim(Json.Obj object) {
        Json.Obj meta = object.object("metadata");
        Json.Obj trimmed = meta;
        if (meta.fields().containsKey("managedFields")) {
            trimmed = trimmed.without("managedFields");
        }
        Json.Obj annotations = meta.object("annotations");
        if (annotations.fields().containsKey(LAST_APPLIED)) {
            Json.Obj rest = annotations.without(LAST_APPLIED);
            trimmed = rest.size() == 0 ? trimmed.without("annotations") : trimmed.with("annotations", rest);
        }
        return trimmed == meta ? object : object.with("metadata", trimmed);
    }

    /** {@code metadata.name}, or "" when absent. */
    public static String name(Json.Obj object) {
        return object.object("metadata").string("name").orElse("");
    }

    /** {@code metadata.namespace}, or "" when absent (cluster-scoped objects). */
    public static String namespace(Json.Obj object) {
        return object.object("metadata").string("namespace").orElse("");
    }

    /** {@code metadata.resourceVersion}, or "" when absent. */
    public static String resourceVersion(Json.Obj object) {
        return object.object("metadata").string("resourceVersion").orElse("");
    }

    static void requireIdentity(String what, Json.Obj object, String namespace, String name) {
        String ns = namespace(object);
        String n = name(object);
        if (!ns.equals(namespace) || !n.equals(name)) {
            throw new InvalidValueException(what + ".metadata", ns + "/" + n,
                    "object identity does not match the event key " + namespace + "/" + name);
        }
    }

    /**
     * A resourceVersion as every event carries it: an opaque token ({@link Printable#requireToken}),
     * "" when unknown. Checked here, in the constructor of each event that holds one, so that the
     * source observing the API server, a journal being decoded and {@code render --objects} all
     * refuse the same values at their edge: a value that could end a line of
     * {@code render --explain}, {@code diff} or {@code audit} output, or drive a terminal, never
     * becomes an event (issue 18). The source skips such an object and reports it; the codec
     * reports such a record as damage ({@link EventDecodeException.Reason#INVALID_VALUE}), since
     * no kproxy can have written it (docs/operations.md, "Untrusted input").
     */
    static String requireResourceVersion(String value) {
        return Printable.requireToken("resourceVersion", value);
    }

    /** A cluster-scoped object's name: a DNS-1123 subdomain, as the API server requires ({@link Names#subdomain}). */
    static String requireSubdomain(String field, String value) {
        return Names.subdomain(field, value);
    }

    static String requireText(String field, String value) {
        if (value == null) {
            throw new InvalidValueException(field, "null", "must not be null (use \"\" for unknown)");
        }
        return value;
    }
}
