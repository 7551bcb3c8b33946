package io.kproxy.app;

import io.kproxy.backend.Backend;
import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.config.ConfigException;
import io.kproxy.config.ConfigLoader;
import io.kproxy.config.ProxyConfig;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.state.FoldStep;
import io.kproxy.state.FoldedState;
import io.kproxy.state.Rejection;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kproxy render}: the ruleset kproxy would program on {@code --node} for the objects in
 * {@code --objects}, printed on standard output, with the configuration of {@code --config} (or
 * the defaults) in {@code --mode}. The objects go through exactly the agent's path: observations,
 * the fold, the node projection and the backend's render, with an in-memory kernel port (nothing
 * is programmed). A bad object, or a bad field in one, is reported on standard error with its
 * file and reason while the rest render (exit 3); any installed backend's mode works.
 */
@Command(name = "render", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Print the ruleset kproxy would program for the objects in a directory.")
final class RenderCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--objects", required = true, paramLabel = "DIR",
            description = "Directory of Service, EndpointSlice and Node objects (YAML or JSON, one or many per file).")
    Path objects;

    @Option(names = "--node", required = true, paramLabel = "NAME", description = "The node to render for.")
    String node;

    @Option(names = "--config", paramLabel = "FILE", description = "A KubeProxyConfiguration file (default: every field at its default).")
    Path config;

    @Option(names = "--mode", required = true, paramLabel = "MODE", description = "The backend: nftables, or any other installed one.")
    String mode;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ProxyConfig cfg;
        NodeName nodeName;
        try {
            cfg = config == null ? ConfigLoader.defaults() : ConfigLoader.load(config);
            nodeName = new NodeName(node);
        } catch (ConfigException | InvalidValueException e) {
            err.println("kproxy render: " + e.getMessage());
            return 2;
        }
        Optional<BackendProvider> provider = BackendProvider.forMode(mode);
        if (provider.isEmpty()) {
            err.println("kproxy render: no backend for mode " + mode + " (installed: "
                    + String.join(", ", BackendProvider.all().stream().map(BackendProvider::mode).toList()) + ")");
            return 2;
        }
        ObjectFiles.Result read;
        try {
            read = ObjectFiles.read(objects, nodeName);
        } catch (IOException e) {
            err.println("kproxy render: cannot read " + objects + ": " + e.getMessage());
            return 2;
        }
        List<String> problems = new ArrayList<>();
        read.problems().forEach(p -> problems.add(p.origin() + ": " + p.reason()));
        FoldedState state = fold(cfg, nodeName, read.items(), problems);
        MemoryKernelPort nowhere = new MemoryKernelPort();
        try (Backend backend = provider.get().create(nowhere, nowhere)) {
            out.print(backend.render(state.node()).rulesetText());
            out.flush();
        }
        problems.forEach(p -> err.println("kproxy render: skipped " + p));
        err.flush();
        return problems.isEmpty() ? 0 : 3;
    }

    /** The agent's fold: the configuration (in the asked mode), the objects, then every sync barrier. */
    private FoldedState fold(ProxyConfig cfg, NodeName nodeName, List<ObjectFiles.Item> items, List<String> problems) {
        Json.Obj tree = ConfigLoader.toTree(cfg).with("mode", Json.of(mode));
        FoldedState state = FoldedState.initial();
        Map<Long, String> origins = new HashMap<>();
        long offset = 0;
        origins.put(offset, config == null ? "defaults" : config.toString());
        state = state.apply(envelope(offset++, new ConfigRecorded(nodeName, tree))).state();
        for (ObjectFiles.Item item : items) {
            origins.put(offset, item.origin());
            FoldStep step = state.apply(envelope(offset++, item.event()));
            for (Rejection r : step.rejections()) {
                problems.add(origins.get(r.offset()) + ": " + r.kind() + " " + r.key() + (r.field().isEmpty() ? "" : " " + r.field()) + ": "
                        + r.reason());
            }
            state = step.state();
        }
        for (ResourceKind k : ResourceKind.values()) {
            state = state.apply(envelope(offset++, new SourceSynced(k, ""))).state();
        }
        return state;
    }

    private static Envelope envelope(long offset, io.kproxy.events.ClusterEvent event) {
        return new Envelope(offset, Instant.EPOCH, "render", event);
    }
}
