package io.kproxy.app;

import io.kproxy.config.ConfigException;
import io.kproxy.config.loader.ConfigText;
import io.kproxy.config.loader.TextFiles;
import io.kproxy.config.loader.TextLimits;
import io.kproxy.events.ClusterEvent;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.KubeObjects;
import io.kproxy.events.NodeObserved;
import io.kproxy.events.ServiceCIDRObserved;
import io.kproxy.events.ServiceObserved;
import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.model.ServiceRef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Service, EndpointSlice, Node and ServiceCIDR ({@code networking.k8s.io/v1}) objects read from the YAML and JSON files of a directory (one
 * or many documents per file, {@code kind: List} too), in file-name order, as the observations
 * the source would record. A document that cannot become an observation (not an object, an
 * unsupported kind, a missing or invalid name) is a {@link Problem} naming its file and reason;
 * the others are kept. A namespaced object without a namespace is in {@code default}, as with
 * {@code kubectl}. Nodes other than {@code node} are not this proxy's and are left out.
 *
 * <p>Input is bounded (docs/operations.md, "Input limits"): each file must be a regular file (a
 * FIFO, device, socket or directory with a matching name is a {@link Problem}, never opened) of
 * at most {@link TextLimits#OBJECTS} bytes, parsed within that record's string and depth limits;
 * once the files read reach {@link #MAX_TOTAL_CHARS} characters together, the rest are problems too. Reads
 * files; otherwise pure.
 */
final class ObjectFiles {

    /** One observation and where it came from ({@code file#document}). */
    record Item(ClusterEvent event, String origin) {
    }

    /** A document that was skipped, and why. */
    record Problem(String origin, String reason) {
    }

    record Result(List<Item> items, List<Problem> problems) {
    }

    /** The most characters read from one directory's files together (four files at the per-file limit). */
    static final long MAX_TOTAL_CHARS = 4L * TextLimits.OBJECTS.maxFileBytes();

    private ObjectFiles() {
    }

    /** @throws IOException when {@code dir} is not a directory or cannot be listed */
    static Result read(Path dir, NodeName node) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException(Files.exists(dir) ? "not a directory" : "no such directory");
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().matches(".*\\.(ya?ml|json)$")).sorted().toList();
        }
        List<Item> items = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        long total = 0;
        for (Path f : files) {
            String name = f.getFileName().toString();
            if (total >= MAX_TOTAL_CHARS) {
                problems.add(new Problem(name, "not read: the directory's files reached the limit of " + MAX_TOTAL_CHARS + " characters together"));
                continue;
            }
            String text;
            try {
                text = TextFiles.read(f, TextLimits.OBJECTS.maxFileBytes());
            } catch (ConfigException e) {
                problems.add(new Problem(name, e.errors().getFirst().reason()));
                continue;
            }
            total += text.length();
            List<Json> docs;
            try {
                docs = ConfigText.parseAll(text, TextLimits.OBJECTS);
            } catch (ConfigException e) {
                problems.add(new Problem(name, e.getMessage()));
                continue;
            }
            for (int i = 0; i < docs.size(); i++) {
                add(docs.get(i), name + "#" + (i + 1), node, items, problems);
            }
        }
        return new Result(List.copyOf(items), List.copyOf(problems));
    }

    private static void add(Json doc, String origin, NodeName node, List<Item> items, List<Problem> problems) {
        if (doc instanceof Json.Null) {
            return; // an empty document (a trailing "---")
        }
        if (!(doc instanceof Json.Obj o)) {
            problems.add(new Problem(origin, "not an object"));
            return;
        }
        String kind = o.string("kind").orElse("");
        if (kind.equals("List")) {
            List<Json> list = o.array("items");
            for (int i = 0; i < list.size(); i++) {
                add(list.get(i), origin + ".items[" + i + "]", node, items, problems);
            }
            return;
        }
        try {
            switch (kind) {
                case "Service" -> {
                    Json.Obj obj = namespaced(o);
                    items.add(new Item(new ServiceObserved(new ServiceRef(KubeObjects.namespace(obj), KubeObjects.name(obj)),
                            KubeObjects.resourceVersion(obj), obj), origin));
                }
                case "EndpointSlice" -> {
                    Json.Obj obj = namespaced(o);
                    items.add(new Item(new EndpointSliceObserved(new EndpointSliceRef(KubeObjects.namespace(obj), KubeObjects.name(obj)),
                            KubeObjects.resourceVersion(obj), obj), origin));
                }
                case "Node" -> {
                    if (KubeObjects.name(o).equals(node.value())) {
                        items.add(new Item(new NodeObserved(node, KubeObjects.resourceVersion(o), o), origin));
                    }
                }
                case "ServiceCIDR" -> items.add(new Item(new ServiceCIDRObserved(KubeObjects.name(o), KubeObjects.resourceVersion(o), o),
                        origin));
                default -> problems.add(new Problem(origin, kind.isEmpty() ? "no kind" : "unsupported kind " + kind
                        + " (Service, EndpointSlice, Node, ServiceCIDR or List)"));
            }
        } catch (InvalidValueException e) {
            problems.add(new Problem(origin, kind + " " + KubeObjects.namespace(o) + "/" + KubeObjects.name(o) + ": " + e.getMessage()));
        }
    }

    private static Json.Obj namespaced(Json.Obj o) {
        Json.Obj meta = o.object("metadata");
        return meta.string("namespace").filter(s -> !s.isEmpty()).isPresent() ? o : o.with("metadata", meta.with("namespace", Json.of("default")));
    }
}
