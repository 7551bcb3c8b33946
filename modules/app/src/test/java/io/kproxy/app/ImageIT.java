package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kproxy.testkit.KernelTests;
import io.kproxy.testkit.NetNs;
import io.kproxy.testkit.netns.Outcome;
import io.kproxy.testkit.netns.Probe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 26: the container image, built here without a registry by {@code deploy/build-image.sh}
 * (Debian packages, buildah, no RUN step), holds what the DaemonSet runs. Running containers does
 * not work on these machines, so the image is mounted ({@code buildah mount}) and its entrypoint
 * entered with {@code chroot}, read-only, inside a network namespace the test created (never the
 * machine's own): it syncs from fabric8's mock API server, programs that namespace's nftables,
 * serves {@code /healthz}, and a pod reaches a ClusterIP through it. The Containerfile path (which
 * needs a registry) cannot be built here; it calls the same layout script, which the test runs as
 * the Containerfile does and compares with the image, file by file.
 */
class ImageIT {

    private static final String NODE = "node-a";
    private static final String WEB = "172.30.0.10";
    private static final String POD1 = "10.0.1.11";
    private static final String POD2 = "10.0.1.12";

    private static Path dir;
    private static BuiltImage image;

    @BeforeAll
    static void build() throws IOException {
        KernelTests.require("ip", "nft", "unshare", "chroot", "mmdebstrap", "podman", "buildah");
        dir = Files.createTempDirectory(Path.of("/tmp"), "kp-image-");
        long start = System.nanoTime();
        image = BuiltImage.build(dir.resolve("kproxy-image.tar"));
        System.out.printf("image=%s size_bytes=%d build_seconds=%d (script) %d (with mounting)%n", image.report.tag(), image.report.sizeBytes(),
                image.report.seconds(), TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start));
    }

    @AfterAll
    static void removeImage() throws IOException {
        try {
            if (image != null) {
                image.close();
            }
        } finally {
            if (dir != null) {
                delete(dir);
            }
        }
    }

    @Test
    void theBuildahImageHasTheContainerfilesLayoutAndNothingWritableButTheJournal() throws IOException {
        Containerfile cf = Containerfile.read(AgentProcess.root().resolve("deploy/Containerfile"));
        // Both paths lay out /opt/kproxy with the same script: the Containerfile's call, run here, equals the image's tree.
        assertThat(cf.buildStageRuns()).anyMatch(run -> run.endsWith(" deploy/image-layout.sh /opt/kproxy"));
        assertThat(cf.lines()).contains("COPY --from=build /opt/kproxy /opt/kproxy");
        Path layout = dir.resolve("containerfile-layout");
        BuiltImage.run(Duration.ofMinutes(5), Path.of("target", "image-layout.log"), AgentProcess.root().resolve("deploy/image-layout.sh")
                .toString(), layout.toString());
        assertThat(tree(image.root.resolve("opt/kproxy"))).isEqualTo(tree(layout)).contains("kproxy f rwxr-xr-x", "runtime/bin/java f rwxr-xr-x");
        assertThat(Files.readString(image.root.resolve("opt/kproxy/kproxy")))
                .isEqualTo(Files.readString(AgentProcess.root().resolve("deploy/kproxy-image-launcher")));
        assertThat(Files.readString(image.root.resolve("opt/kproxy/runtime/release"))).contains("jdk.net").contains("jdk.unsupported");

        // The same entrypoint, command and labels; the same packages, installed.
        assertThat(image.config(".Config.Entrypoint")).isEqualTo(cf.json("ENTRYPOINT"));
        assertThat(image.config(".Config.Cmd")).isEqualTo(cf.json("CMD"));
        assertThat(image.config(".Config.Labels")).contains("\"org.opencontainers.image.title\":\"kproxy\"",
                "\"org.opencontainers.image.version\":\"" + cf.argDefault("KPROXY_VERSION") + "\"");
        String status = Files.readString(image.root.resolve("var/lib/dpkg/status"));
        for (String pkg : cf.argDefault("KPROXY_PACKAGES").split(" ")) {
            assertThat(status).as("package %s installed", pkg).containsPattern("(?m)^Package: " + pkg + "\\n(?:.+\\n)*?Status: install ok installed");
        }
        // The tools the agent runs are there; shell tools it does not call, perl and apt are not (deploy/build-image.sh).
        for (String tool : List.of("usr/sbin/nft", "usr/sbin/iptables-nft-restore", "usr/sbin/iptables-legacy-restore", "usr/sbin/ipset",
                "usr/sbin/conntrack", "usr/sbin/ip", "usr/bin/sh")) {
            assertThat(image.root.resolve(tool)).as(tool).exists();
        }
        for (String tool : List.of("usr/bin/bash", "usr/bin/perl", "usr/bin/apt", "usr/bin/grep", "usr/bin/sed", "usr/bin/ls", "usr/bin/tar")) {
            assertThat(image.root.resolve(tool)).as(tool).doesNotExist();
        }
        assertThat(cf.lines()).anyMatch(l -> l.contains("install -d -m 0700 /var/lib/kproxy"));
        assertThat(mode(image.root.resolve("var/lib/kproxy"))).isEqualTo("rwx------");
        assertThat(mode(image.root.resolve("etc/kproxy"))).isEqualTo("rwxr-xr-x");

        // Owned by root and writable by root only, but for sticky directories (/tmp, /var/tmp,
        // /run/lock: nobody can touch another's files there) and the device nodes (a runtime
        // mounts its own /dev over them).
        List<String> writable = new ArrayList<>();
        try (Stream<Path> all = Files.walk(image.root)) {
            all.filter(p -> !Files.isSymbolicLink(p)).forEach(p -> {
                String rel = image.root.relativize(p).toString();
                int uid = unix(p, "uid");
                int gid = unix(p, "gid");
                boolean sticky = Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) && (unix(p, "mode") & 01000) != 0;
                Set<PosixFilePermission> perms = perms(p);
                boolean othersWrite = (gid != 0 && perms.contains(PosixFilePermission.GROUP_WRITE)) || perms.contains(PosixFilePermission.OTHERS_WRITE);
                if ((uid != 0 || othersWrite) && !rel.startsWith("dev/") && !sticky) {
                    writable.add(rel + " uid=" + uid + " gid=" + gid + " " + PosixFilePermissions.toString(perms));
                }
            });
        }
        assertThat(writable).as("writable by someone else than root").isEmpty();

        // --save wrote an archive that docker load and ctr import read: a docker-archive of the tag.
        String manifest = BuiltImage.run(Duration.ofMinutes(1), null, "tar", "-xOf", dir.resolve("kproxy-image.tar").toString(), "manifest.json");
        assertThat(manifest).contains(image.report.tag());
    }

    @Test
    void theImagesEntrypointSyncsProgramsTheNamespaceAndServesHealth() throws Exception {
        Path journal = Files.createDirectories(dir.resolve("journal-volume"));
        try (AgentWorld world = AgentWorld.create("kp-img-")) {
            world.api.apply(MockApi.node(NODE, "192.168.0.2"));
            world.api.apply(MockApi.service("web", WEB));
            world.api.apply(MockApi.slice("web", List.of(new String[] {POD1, NODE}, new String[] {POD2, NODE}), Instant.now().toString()));
            // The DaemonSet's flags, with the API server at the relay and no --config (deploy/configmap.yaml needs TLS and a token).
            AgentProcess agent = AgentProcess.startCommand(image.enter(world.topo.ns("node").prefix(), journal, null,
                    List.of("/opt/kproxy/kproxy", "run", "--hostname-override", NODE, "--master", "http://127.0.0.1:" + AgentWorld.API_PORT,
                            "--proxy-mode", "nftables", "--cluster-cidr", "10.0.0.0/16", "--iptables-sync-period", "2s",
                            "--iptables-min-sync-period", "0s", "--healthz-bind-address", "0.0.0.0:10256")),
                    "image-agent.log");
            try {
                Probe pod3 = world.topo.probe("pod3", 1_000);
                await("web reachable through the image's agent").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                        .until(() -> pod3.tcp(null, WEB, 80).kind() == Outcome.Kind.REPLY || !agent.alive());
                assertThat(agent.alive()).as("agent alive; log:%n%s", agent.output()).isTrue();
                assertThat(world.tcpServers(WEB, 30)).containsExactlyInAnyOrder("pod1", "pod2");
                NetnsHttp.Response healthz = NetnsHttp.get(world.node, "127.0.0.1", 10256, "/healthz");
                assertThat(healthz.status()).as(healthz.body()).isEqualTo(200);
                assertThat(world.topo.ns("node").exec("nft", "list", "ruleset")).contains("demo/web/tcp/http");
                assertThat(agent.output()).contains("decision=agent-started", "decision=synced kind=FULL").doesNotContain("level=ERROR");
                try (Stream<Path> files = Files.list(journal.resolve("journal"))) {
                    assertThat(files.count()).as("journal written to the volume").isPositive();
                }
                assertThat(agent.terminate()).isIn(0, 143);
                assertThat(agent.output()).contains("decision=agent-stopped rules=kept");
            } finally {
                agent.close();
            }
        }
    }

    @Test
    void renderFromTheImagePrintsWhatTheHostBuildPrints() throws Exception {
        List<String> args = List.of("render", "--node", NODE, "--mode", "nftables", "--objects");
        KproxyLaunchIT.Result host = KproxyLaunchIT.launch(Stream.concat(args.stream(), Stream.of(RenderCommandTest.OBJECTS.toAbsolutePath()
                .toString())).toArray(String[]::new));
        Path journal = Files.createDirectories(dir.resolve("journal-render"));
        KproxyLaunchIT.Result inImage;
        try (NetNs ns = NetNs.create("imgrend")) {
            List<String> command = new ArrayList<>(List.of("/opt/kproxy/kproxy"));
            command.addAll(args);
            command.add("/tmp/objects");
            Process p = new ProcessBuilder(image.enter(ns.prefix(), journal, RenderCommandTest.OBJECTS.toAbsolutePath(), command)).start();
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> KproxyLaunchIT.read(p.getInputStream()));
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> KproxyLaunchIT.read(p.getErrorStream()));
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("render in the image finished").isTrue();
            inImage = new KproxyLaunchIT.Result(p.exitValue(), out.join(), err.join());
        }
        assertThat(inImage.exit()).as(inImage.err()).isEqualTo(host.exit()).isEqualTo(3);
        assertThat(inImage.out()).isEqualTo(host.out()).contains("table ip kube-proxy");
    }

    /** Every entry under {@code top}: relative path, type (d, f, l) and permissions, sorted. */
    private static List<String> tree(Path top) throws IOException {
        try (Stream<Path> all = Files.walk(top)) {
            return all.filter(p -> !p.equals(top)).map(p -> top.relativize(p) + " " + (Files.isSymbolicLink(p) ? "l"
                    : Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? "d" : "f") + " " + mode(p)).sorted().toList();
        }
    }

    private static String mode(Path p) {
        return PosixFilePermissions.toString(perms(p));
    }

    private static Set<PosixFilePermission> perms(Path p) {
        try {
            return Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A numeric attribute of the unix view: uid, gid, mode. */
    private static int unix(Path p, String attribute) {
        try {
            return (Integer) Files.getAttribute(p, "unix:" + attribute, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path top) throws IOException {
        try (Stream<Path> files = Files.walk(top)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The lines of deploy/Containerfile that both image builds must agree on. */
    record Containerfile(List<String> lines) {

        static Containerfile read(Path file) throws IOException {
            // Continuation lines joined, comments dropped: one instruction a line.
            String joined = Files.readString(file).replaceAll("\\\\\\n", " ");
            return new Containerfile(Arrays.stream(joined.split("\n")).map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#"))
                    .map(l -> l.replaceAll("\\s+", " ")).toList());
        }

        /** The RUN instructions of the {@code build} stage. */
        List<String> buildStageRuns() {
            List<String> runs = new ArrayList<>();
            boolean inBuild = false;
            for (String l : lines) {
                if (l.startsWith("FROM ")) {
                    inBuild = l.endsWith(" AS build");
                } else if (inBuild && l.startsWith("RUN ")) {
                    runs.add(l);
                }
            }
            return runs;
        }

        /** The JSON form of an instruction (ENTRYPOINT, CMD), without spaces, as podman prints it. */
        String json(String instruction) {
            return lines.stream().filter(l -> l.startsWith(instruction + " [")).findFirst().orElseThrow()
                    .substring(instruction.length() + 1).replace(", ", ",");
        }

        /** The default of {@code ARG name="value"} or {@code ARG name=value}. */
        String argDefault(String name) {
            Pattern p = Pattern.compile("ARG " + name + "=\"?([^\"]*)\"?");
            for (String l : lines) {
                Matcher m = p.matcher(l);
                if (m.matches()) {
                    return m.group(1);
                }
            }
            throw new IllegalStateException("no ARG " + name + "=... in deploy/Containerfile");
        }
    }
}
