package io.kproxy.testkit;

import io.kproxy.model.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Pieces shared by the object fixtures. */
final class Fixtures {

    private Fixtures() {
    }

    static Json.Arr strings(List<String> values) {
        return Json.arr(values.stream().map(Json::of).toList());
    }

    static Json.Obj stringMap(Map<String, String> values) {
        LinkedHashMap<String, Json> m = new LinkedHashMap<>();
        values.forEach((k, v) -> m.put(k, Json.of(v)));
        return new Json.Obj(m);
    }

    static Json.Obj metadata(String namespace, String name, String resourceVersion, Map<String, String> labels,
            Map<String, String> annotations) {
        LinkedHashMap<String, Json> meta = new LinkedHashMap<>();
        meta.put("name", Json.of(name));
        if (!namespace.isEmpty()) {
            meta.put("namespace", Json.of(namespace));
        }
        meta.put("uid", Json.of(uid(namespace + "/" + name)));
        meta.put("resourceVersion", Json.of(resourceVersion));
        if (!labels.isEmpty()) {
            meta.put("labels", stringMap(labels));
        }
        if (!annotations.isEmpty()) {
            meta.put("annotations", stringMap(annotations));
        }
        return new Json.Obj(meta);
    }

    /** A stable, UUID-shaped uid derived from the key, so that fixtures are reproducible. */
    static String uid(String key) {
        long h = 1125899906842597L;
        for (int i = 0; i < key.length(); i++) {
            h = 31 * h + key.charAt(i);
        }
        long l = h * 0x9E3779B97F4A7C15L;
        String hex = String.format("%016x%016x", h, l);
        return hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-" + hex.substring(16, 20) + "-"
                + hex.substring(20, 32);
    }
}
