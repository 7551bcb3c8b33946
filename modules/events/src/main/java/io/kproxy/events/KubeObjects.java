package io.kproxy.events;

import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;

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
     * A DNS-1123 subdomain, as the API server requires of a cluster-scoped object's name: dot
     * separated labels of lower-case alphanumerics and '-', each starting and ending with an
     * alphanumeric, 253 characters at most.
     */
    static String requireSubdomain(String field, String value) {
        if (value == null || value.isEmpty() || value.length() > 253) {
            throw new InvalidValueException(field, value == null ? "null" : value, "must be a DNS-1123 subdomain of 1 to 253 characters");
        }
        for (String label : value.split("\\.", -1)) {
            if (!isLabel(label)) {
                throw new InvalidValueException(field, value,
                        "must consist of lower case alphanumeric characters, '-' or '.', and start and end with an alphanumeric character");
            }
        }
        return value;
    }

    private static boolean isLabel(String s) {
        if (s.isEmpty() || s.length() > 63 || s.charAt(0) == '-' || s.charAt(s.length() - 1) == '-') {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    static String requireText(String field, String value) {
        if (value == null) {
            throw new InvalidValueException(field, "null", "must not be null (use \"\" for unknown)");
        }
        return value;
    }
}
