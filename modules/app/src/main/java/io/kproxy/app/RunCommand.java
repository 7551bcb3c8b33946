package io.kproxy.app;

import io.kproxy.backend.KernelException;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.config.Availability;
import io.kproxy.config.ConfigTrees;
import io.kproxy.config.ConfigVersion;
import io.kproxy.config.KproxyConfig;
import io.kproxy.config.loader.ConfigText;
import io.kproxy.source.kube.ClientConfigException;
import io.kproxy.source.kube.KubeSource;
import io.kproxy.source.kube.KubeSourceOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kproxy run}: the node agent, with upstream kube-proxy's flags ({@link ConfigFlags}) and
 * precedence ({@link RunConfig}). A bad flag or configuration is refused, with every field and
 * its reason, before a port is bound or the kernel or the journal is touched (exit 2): also a mode
 * without an installed backend, an event log this build lacks, and a kubeconfig that is not a
 * regular file; {@code --write-config-to} refuses the same configurations. {@code --cleanup} removes
 * what every installed backend owns and exits; {@code --write-config-to} writes the effective
 * configuration as v1alpha1 (upstream's choice; {@code --config} reads v1alpha2 too) and exits. Otherwise it runs until SIGTERM and stops cleanly, leaving every rule
 * in place.
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run the node agent: watch the API server, journal what it says, program the kernel.")
final class RunCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);
    /** The version {@code --write-config-to} writes (docs/operations.md, "Configuration versions"). */
    static final ConfigVersion WRITTEN_VERSION = ConfigVersion.V1ALPHA1;

    @Spec
    CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", description = "The KubeProxyConfiguration file, apiVersion kubeproxy.config.k8s.io/v1alpha1"
            + " or v1alpha2 (KEP-784's draft); flags that map to it are then ignored.")
    Path config;

    @Option(names = "--hostname-override", paramLabel = "NAME", description = "The name of this node (wins over the configuration file).")
    String hostnameOverride;

    @Option(names = "--master", paramLabel = "URL", description = "The API server's address (overrides the kubeconfig's; "
            + "without --kubeconfig, requests carry no credentials).")
    String master;

    @Option(names = "--cleanup", description = "Remove the rules of every installed backend and exit.")
    boolean cleanup;

    @Option(names = "--write-config-to", paramLabel = "FILE",
            description = "Write the effective configuration to FILE as kubeproxy.config.k8s.io/v1alpha1 (as upstream) and exit.")
    Path writeConfigTo;

    @Option(names = "--ui-listen", paramLabel = "HOST:PORT", description = "Also serve kproxy ui's read-only page for this agent's "
            + "journal on this address (off by default; keep it on loopback, e.g. 127.0.0.1:8080, and reach it with kubectl port-forward).")
    String uiListen;

    @Mixin
    ConfigFlags flags = new ConfigFlags();

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        // refused before anything is read, bound or touched
        java.net.InetSocketAddress ui = null;
        if (uiListen != null) {
            try {
                ui = UiCommand.address(uiListen);
            } catch (IllegalArgumentException e) {
                err.println("kproxy run: --ui-listen: " + e.getMessage());
                err.flush();
                return 2;
            }
        }
        RunConfig.Resolved resolved;
        try {
            // --cleanup runs no mode (it cleans every installed one): only what it runs must be available.
            resolved = RunConfig.resolve(Optional.ofNullable(config), flags, Optional.ofNullable(hostnameOverride),
                    cleanup && writeConfigTo == null ? Availability.EVERYTHING : Agent.availability());
        } catch (RunConfig.Refused e) {
            err.println("kproxy run: " + e.getMessage());
            err.flush();
            return 2;
        }
        Logging.configure(resolved.config().logging().format(), resolved.config().logging().verbosity());
        resolved.warnings().forEach(w -> LOG.warn("decision=ignore-flag reason=\"{}\"", w));
        if (writeConfigTo != null) {
            return writeConfig(resolved, err);
        }
        if (cleanup) {
            return cleanup();
        }
        try {
            RunConfig.preflight(resolved, Optional.ofNullable(master).filter(s -> !s.isBlank()));
        } catch (RunConfig.Refused e) {
            err.println("kproxy run: " + e.getMessage());
            err.flush();
            return 2;
        }
        // The API client's settings are checked before the journal or the kernel is touched: a
        // kubeconfig naming a missing token file is a refusal (exit 2), not a source that talks
        // as system:anonymous. A Kafka-mode agent uses the client for Events only, and needs none
        // (docs/kafka.md, "Followers"): it is checked only when one is configured.
        String kubeconfig = resolved.config().clientConnection().kubeconfig();
        String masterUrl = Optional.ofNullable(master).filter(s -> !s.isBlank()).orElse("");
        if (resolved.config().kproxy().eventLog().type() != KproxyConfig.EventLogType.KAFKA
                || KafkaFollowing.apiClientConfigured(kubeconfig, masterUrl, System.getenv())) {
            try {
                String client = KubeSource.checkClientConfig(KubeSourceOptions.defaults(resolved.node()).withKubeconfig(kubeconfig)
                        .withMasterUrl(masterUrl));
                LOG.info("decision=client-config-checked {}", client);
            } catch (ClientConfigException e) {
                err.println("kproxy run: " + e.getMessage());
                err.flush();
                return 2;
            }
        }
        // The hook is in place before anything starts: a SIGTERM during the start stops cleanly too.
        Agent agent = new Agent(ui);
        CompletableFuture<Void> stopped = new CompletableFuture<>();
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("kproxy-shutdown").unstarted(() -> {
            LOG.info("decision=stop reason=signal");
            agent.close();
            stopped.complete(null);
        }));
        try {
            agent.start(resolved, Optional.ofNullable(master).filter(s -> !s.isBlank()));
        } catch (Agent.StartFailure e) {
            LOG.error("decision=exit reason=\"cannot start\" error=\"{}\"", e.getMessage());
            err.println("kproxy run: " + e.getMessage());
            err.flush();
            return 1;
        }
        try {
            CompletableFuture.anyOf(stopped, agent.failure()).get();
            return 0;
        } catch (ExecutionException e) {
            agent.close();
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            agent.close();
            return 1;
        }
    }

    /** Writes a regular file only: writing to a FIFO would block until some reader opened it. */
    private int writeConfig(RunConfig.Resolved resolved, PrintWriter err) {
        if (Files.exists(writeConfigTo) && !Files.isRegularFile(writeConfigTo)) {
            err.println("kproxy run: --write-config-to " + writeConfigTo + " exists and is not a regular file");
            err.flush();
            return 2;
        }
        try {
            // Upstream's options.go writeConfigFile encodes to v1alpha1 whatever version was read.
            Files.writeString(writeConfigTo, ConfigText.toYaml(ConfigTrees.toTree(resolved.config(), WRITTEN_VERSION)));
            LOG.info("decision=wrote-config file=\"{}\" apiVersion={}", writeConfigTo, WRITTEN_VERSION.apiVersion());
            return 0;
        } catch (IOException e) {
            err.println("kproxy run: cannot write " + writeConfigTo + ": " + e.getMessage());
            return 1;
        }
    }

    /** Upstream's {@code --cleanup} ({@code platformCleanup}, {@code cmd/kube-proxy/app/server_linux.go}): every installed mode's leftovers, ipvs included, then exit. */
    private static int cleanup() {
        int failed = 0;
        for (BackendProvider p : BackendProvider.all()) {
            try {
                // cleanupLeftovers, not create(): a mode the kernel cannot run (ipvs without ip_vs) may still have leftovers.
                p.cleanupLeftovers(Optional.empty());
                LOG.info("decision=cleaned-up mode={}", p.mode());
            } catch (KernelException | RuntimeException e) {
                failed++;
                LOG.error("decision=cleanup-failed mode={} error=\"{}\"", p.mode(), e.getMessage());
            }
        }
        return failed == 0 ? 0 : 1;
    }
}
