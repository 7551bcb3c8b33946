package io.kproxy.source.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * deploy/rbac.yaml grants exactly what the code uses: list and watch on what the source watches,
 * create and patch on Events in both groups the recorder writes to (Fabric8EventWriter), and no
 * other verb on anything (no get: the source lists its Node with a field selector; the series
 * update is a plain PATCH, without a read first).
 */
class ShippedRbacTest {

    private static final Path RBAC = Path.of("../../deploy/rbac.yaml");

    /** "group/resource" to verbs, over every rule of the ClusterRole. */
    private static Map<String, Set<String>> grants() throws IOException {
        List<JsonNode> docs = new YAMLMapper().readerFor(JsonNode.class).<JsonNode>readValues(Files.readString(RBAC)).readAll();
        Map<String, Set<String>> out = new TreeMap<>();
        for (JsonNode doc : docs) {
            if (!doc.path("kind").asText().equals("ClusterRole")) {
                continue;
            }
            for (JsonNode rule : doc.path("rules")) {
                for (JsonNode group : rule.path("apiGroups")) {
                    for (JsonNode resource : rule.path("resources")) {
                        Set<String> verbs = out.computeIfAbsent(group.asText() + "/" + resource.asText(), k -> new TreeSet<>());
                        rule.path("verbs").forEach(v -> verbs.add(v.asText()));
                    }
                }
            }
        }
        return out;
    }

    @Test
    void eventsMayBeCreatedAndPatchedInBothGroupsAndNothingElse() throws IOException {
        Map<String, Set<String>> g = grants();
        assertThat(g.get("/events")).containsExactly("create", "patch");
        assertThat(g.get("events.k8s.io/events")).containsExactly("create", "patch");
    }

    @Test
    void watchedKindsAreOnlyListedAndWatched() throws IOException {
        Map<String, Set<String>> g = grants();
        for (String r : List.of("/services", "/nodes", "discovery.k8s.io/endpointslices", "networking.k8s.io/servicecidrs")) {
            assertThat(g.get(r)).as(r).containsExactly("list", "watch");
        }
        g.forEach((resource, verbs) -> {
            if (!resource.endsWith("/events")) {
                assertThat(verbs).as("%s: the source only lists and watches", resource).containsExactly("list", "watch");
            }
        });
    }
}
