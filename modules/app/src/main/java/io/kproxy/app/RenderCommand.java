package io.kproxy.app;

import io.kproxy.backend.Backend;
import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.config.ConfigException;
import io.kproxy.config.ConfigTrees;
import io.kproxy.config.ProxyConfig;
import io.kproxy.config.loader.ConfigLoader;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.history.History;
import io.kproxy.history.HistoryException;
import io.kproxy.history.Point;
import io.kproxy.history.Rendering;
import io.kproxy.history.Times;
import io.kproxy.journal.kafka.KafkaLogException;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.state.FoldStep;
import io.kproxy.state.FoldedState;
import io.kproxy.state.Rejection;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code kproxy render}, from objects or from a journal.
 *
 * <p>{@code --objects DIR}: the ruleset kproxy would program on {@code --node} for the objects in
 * the directory, printed on standard output, with the configuration of {@code --config} (or the
 * defaults) in {@code --mode}. The objects go through exactly the agent's path: observations, the
 * fold, the node projection and the backend's render, with an in-memory kernel port (nothing is
 * programmed). A bad object, or a bad field in one, is reported on standard error with its file
 * and reason while the rest render (exit 3); any installed backend's mode works. Without
 * {@code --family} the output is the backend's whole ruleset text for reading (both families);
 * with it, one family's {@link io.kproxy.backend.Plan#loadableText}, which loads into an empty
 * network namespace as it is (docs/operations.md).
 *
 * <p>{@code --journal DIR --at TIME | --offset N}: the ruleset the node had programmed at a time
 * (the state of the last sync recorded by then), or the desired state at an offset, rebuilt from
 * the nearest snapshot plus replay ({@link History}); {@code --explain} annotates each Service's
 * rules with the records they came from. Standard error says which sync it is and whether the
 * rebuilt ruleset's hash equals the one the agent recorded.
 */
@Command(name = "render", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Print the ruleset kproxy would program for the objects in a directory (--objects), or the ruleset a node had at a time "
                + "according to its journal (--journal).",
                "TIME: RFC 3339 with a zone (2026-11-22T03:12:07Z), now, or -5m / -2h30m / -1d."},
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {HistoryExits.CODES_0, HistoryExits.CODES_1, HistoryExits.CODES_2,
                "3:(--objects) rendered, but some objects or fields were skipped (listed on standard error)", HistoryExits.CODES_4,
                HistoryExits.CODES_5})
final class RenderCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--objects", paramLabel = "DIR",
            description = "Directory of Service, EndpointSlice, Node and ServiceCIDR objects (YAML or JSON, one or many per file).")
    Path objects;

    @Option(names = "--node", paramLabel = "NAME", description = "(--objects) The node to render for.")
    String node;

    @Option(names = "--config", paramLabel = "FILE",
            description = "(--objects) A KubeProxyConfiguration file (default: every field at its default).")
    Path config;

    @Option(names = "--mode", paramLabel = "MODE",
            description = "The backend: nftables, or any other installed one (--journal: default the mode the node ran in).")
    String mode;

    @Option(names = "--family", paramLabel = "ipv4|ipv6", converter = FamilyConverter.class,
            description = "(--objects) Print one family's ruleset, loadable as it is into an empty network namespace: iptables-restore "
                    + "(ipv4) or ip6tables-restore (ipv6) input with the jumps from the built-in chains, or that family's nftables table "
                    + "for nft -f. Default: both families, for reading (iptables: without those jumps).")
    IpFamily family;

    @Option(names = "--journal", paramLabel = "DIR", description = "A journal directory (read only; a copy is fine).")
    Path journal;

    @Option(names = "--at", paramLabel = "TIME", description = "(--journal) The ruleset the node had programmed at this time.")
    String at;

    @Option(names = "--offset", paramLabel = "N", description = "(--journal) The desired state of the records up to offset N.")
    Long offset;

    @Option(names = "--desired", description = "(--journal --at) The desired state of the records up to TIME, programmed or not.")
    boolean desired;

    @Option(names = "--explain", description = "(--journal) Precede each Service's rules with the records they came from.")
    boolean explain;

    @Mixin
    FleetView fleet = new FleetView();

    @Override
    public Integer call() {
        if (fleet.given()) {
            return fromTopic();
        }
        if (journal != null) {
            return fromJournal();
        }
        if (objects == null) {
            throw new ParameterException(spec.commandLine(), "Missing required option: '--objects=DIR' or '--journal=DIR'");
        }
        if (at != null || offset != null || desired || explain) {
            throw new ParameterException(spec.commandLine(), "--at, --offset, --desired and --explain need --journal");
        }
        List<String> missing = new ArrayList<>();
        if (node == null) {
            missing.add("'--node=NAME'");
        }
        if (mode == null) {
            missing.add("'--mode=MODE'");
        }
        if (!missing.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "Missing required options: " + String.join(", ", missing));
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ProxyConfig cfg;
        NodeName nodeName;
        try {
            cfg = config == null ? ConfigTrees.defaults() : ConfigLoader.load(config);
            nodeName = new NodeName(node);
        } catch (ConfigException | InvalidValueException e) {
            err.println("kproxy render: " + Terminal.text(e.getMessage()));
            return 2;
        }
        Optional<BackendProvider> provider = BackendProvider.forMode(mode);
        if (provider.isEmpty()) {
            err.println("kproxy render: no backend for mode " + Terminal.text(mode) + " (installed: "
                    + String.join(", ", BackendProvider.all().stream().map(BackendProvider::mode).toList()) + ")");
            return 2;
        }
        ObjectFiles.Result read;
        try {
            read = ObjectFiles.read(objects, nodeName);
        } catch (IOException e) {
            err.println("kproxy render: cannot read " + Terminal.text(objects) + ": " + Terminal.text(e.getMessage()));
            return 2;
        }
        List<String> problems = new ArrayList<>();
        read.problems().forEach(p -> problems.add(p.origin() + ": " + p.reason()));
        FoldedState state = fold(cfg, nodeName, read.items(), problems);
        MemoryKernelPort nowhere = new MemoryKernelPort();
        try (Backend backend = provider.get().create(nowhere, nowhere)) {
            var plan = backend.render(state.node());
            out.print(family == null ? plan.rulesetText() : plan.loadableText(family));
            out.flush();
        }
        problems.forEach(p -> err.println("kproxy render: skipped " + Terminal.text(p)));
        err.flush();
        return problems.isEmpty() ? 0 : 3;
    }

    private Integer fromJournal() {
        if (objects != null || node != null || config != null || family != null) {
            throw new ParameterException(spec.commandLine(),
                    "--journal renders from the journal: --objects, --node, --config and --family do not apply");
        }
        if ((at == null) == (offset == null)) {
            throw new ParameterException(spec.commandLine(), "--journal needs exactly one of --at=TIME or --offset=N");
        }
        if (desired && at == null) {
            throw new ParameterException(spec.commandLine(), "--desired goes with --at");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (History h = History.open(journal).withProgress(HistoryExits.progress(err, "render"))) {
            HistoryExits.warnings(err, "render", h);
            Point point;
            if (at != null) {
                Instant t = Times.parse(at, Clock.systemUTC());
                point = desired ? h.desiredAt(t) : h.at(t);
            } else {
                point = h.atOffset(offset);
            }
            return print(h, point, out, err);
        } catch (HistoryException e) {
            return HistoryExits.report(err, "render", e);
        } catch (RuntimeException e) {
            return HistoryExits.failed(err, "render", e);
        }
    }

    /** The ruleset of {@code point} (with its records under --explain) on out, its summary on err. */
    private int print(History h, Point point, PrintWriter out, PrintWriter err) {
        Rendering r = h.render(point, Optional.ofNullable(mode));
        out.print(explain ? h.explain(r) : r.text());
        out.flush();
        err.println("kproxy render: " + r.summary());
        err.flush();
        return HistoryExits.OK;
    }

    /**
     * Fleet time travel: what {@code --node} would have programmed at {@code --at}, from the
     * cluster's topic ({@link FleetView}); exit 5 when the topic cannot be read (an unreachable
     * broker, a missing topic, a record of another cluster or of a newer format).
     */
    private Integer fromTopic() {
        if (node == null || at == null || journal != null || objects != null || offset != null || config != null || family != null) {
            throw new ParameterException(spec.commandLine(), "--kafka-bootstrap-servers needs --node and --at, and takes none of "
                    + "--journal, --objects, --offset, --config, --family");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        NodeName name;
        try {
            name = new NodeName(node);
        } catch (InvalidValueException e) {
            throw new ParameterException(spec.commandLine(), "--node: " + e.getMessage());
        }
        try (History h = fleet.open(name, mode == null ? "nftables" : mode)) {
            return print(h, h.desiredAt(Times.parse(at, Clock.systemUTC())), out, err);
        } catch (HistoryException e) {
            return HistoryExits.report(err, "render", e);
        } catch (KafkaLogException e) {
            return FleetView.refused(err, "render", e);
        } catch (RuntimeException e) {
            return HistoryExits.failed(err, "render", e);
        }
    }

    /** The agent's fold: the configuration (in the asked mode), the objects, then every sync barrier. */
    private FoldedState fold(ProxyConfig cfg, NodeName nodeName, List<ObjectFiles.Item> items, List<String> problems) {
        Json.Obj tree = ConfigTrees.toTree(cfg).with("mode", Json.of(mode));
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

    /** {@code ipv4} or {@code ipv6}, as {@code kproxy render --family} spells them. */
    static final class FamilyConverter implements ITypeConverter<IpFamily> {
        @Override
        public IpFamily convert(String value) {
            return switch (value) {
                case "ipv4" -> IpFamily.IPV4;
                case "ipv6" -> IpFamily.IPV6;
                default -> throw new TypeConversionException("expected ipv4 or ipv6");
            };
        }
    }

    private static Envelope envelope(long offset, io.kproxy.events.ClusterEvent event) {
        return new Envelope(offset, Instant.EPOCH, "render", event);
    }
}
