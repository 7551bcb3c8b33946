package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The module map of docs/architecture.md is the one the {@code module-info.java} files declare,
 * and the graph has the shape the page promises: every module requires only modules built before
 * it (the root pom's order, so nothing points upward and there is no cycle), and no product module
 * requires a tool ({@code sample}, {@code demo}). Reads the sources from the repository checkout.
 */
class ModuleGraphTest {

    private static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();
    private static final Pattern MODULE = Pattern.compile("<module>modules/([a-z0-9-]+)</module>");
    private static final Pattern NAME = Pattern.compile("(?m)^module\\s+(io\\.kproxy[\\w.]*)\\s*\\{");
    private static final Pattern REQUIRES = Pattern.compile("(?m)^\\s*requires\\s+(?:transitive\\s+|static\\s+)*(io\\.kproxy[\\w.]*)\\s*;");
    private static final Set<String> TOOLS = Set.of("sample", "demo");
    private static final String BEGIN = "<!-- module graph: generated from module-info.java, checked by ModuleGraphTest -->";

    @Test
    void theArchitecturePageDrawsTheDeclaredGraph() throws IOException {
        String page = Files.readString(ROOT.resolve("docs/architecture.md"));
        int start = page.indexOf(BEGIN);
        assertThat(start).as("docs/architecture.md holds the marked graph block").isNotNegative();
        int open = page.indexOf("```text\n", start) + "```text\n".length();
        String drawn = page.substring(open, page.indexOf("```", open));
        assertThat(drawn).as("docs/architecture.md's module graph; the declared one is:\n" + render(graph()))
                .isEqualTo(render(graph()));
    }

    @Test
    void everyModuleRequiresOnlyModulesBuiltBeforeIt() throws IOException {
        List<String> order = new ArrayList<>(graph().keySet());
        graph().forEach((folder, requires) -> {
            for (String r : requires) {
                assertThat(order.indexOf(r)).as("%s requires %s", folder, r).isLessThan(order.indexOf(folder)).isNotNegative();
            }
        });
    }

    @Test
    void noProductModuleRequiresATool() throws IOException {
        graph().forEach((folder, requires) -> {
            if (!TOOLS.contains(folder) && !folder.equals("app")) {
                assertThat(requires).as("%s requires a tool", folder).doesNotContainAnyElementsOf(TOOLS);
            }
        });
    }

    /** Folder name → the kproxy modules it requires (by folder name), in the root pom's order; bench has no descriptor. */
    private static Map<String, Set<String>> graph() throws IOException {
        Matcher m = MODULE.matcher(Files.readString(ROOT.resolve("pom.xml")));
        Map<String, String> folderOf = new LinkedHashMap<>();
        Map<String, String> source = new LinkedHashMap<>();
        while (m.find()) {
            Path info = ROOT.resolve("modules").resolve(m.group(1)).resolve("src/main/java/module-info.java");
            if (Files.exists(info)) {
                String text = Files.readString(info);
                Matcher n = NAME.matcher(text);
                assertThat(n.find()).as("module name in %s", info).isTrue();
                folderOf.put(n.group(1), m.group(1));
                source.put(m.group(1), text);
            }
        }
        Map<String, Set<String>> graph = new LinkedHashMap<>();
        source.forEach((folder, text) -> {
            Set<String> requires = new TreeSet<>();
            Matcher r = REQUIRES.matcher(text.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("(?m)//.*$", ""));
            while (r.find()) {
                String target = folderOf.get(r.group(1));
                assertThat(target).as("%s requires %s, a module of this build", folder, r.group(1)).isNotNull();
                requires.add(target);
            }
            graph.put(folder, requires);
        });
        return graph;
    }

    private static String render(Map<String, Set<String>> graph) {
        int width = graph.keySet().stream().mapToInt(String::length).max().orElse(0);
        StringBuilder b = new StringBuilder();
        graph.forEach((folder, requires) -> b.append(folder).append(" ".repeat(width - folder.length())).append(" → ")
                .append(requires.isEmpty() ? "(java.base and libraries only)" : String.join(", ", requires)).append('\n'));
        return b.toString();
    }
}
