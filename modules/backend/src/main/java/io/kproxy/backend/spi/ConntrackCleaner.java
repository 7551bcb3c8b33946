package io.kproxy.backend.spi;

import io.kproxy.backend.ConntrackFilter;
import io.kproxy.backend.KernelException;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link ConntrackPort} over the {@code conntrack} tool, shared by the backends: lists the flows
 * to each filter's original destination and port, and deletes those whose reply source is not
 * kept (upstream's {@code CleanStaleEntries}, {@code pkg/proxy/conntrack/cleanup.go}). The tool
 * is reached through a {@link Tool} that the backend adapts from its process runner (the backend
 * SPI does not depend on {@code io.kproxy.netlink}). Arguments must not be null. Blocks; one
 * caller at a time.
 */
public final class ConntrackCleaner implements ConntrackPort {

    private static final Logger LOG = LoggerFactory.getLogger(ConntrackCleaner.class);
    // udp 17 29 src=A dst=B sport=1 dport=2 [UNREPLIED] src=C dst=D sport=3 dport=4 ...
    private static final Pattern FLOW = Pattern.compile("src=(\\S+) dst=(\\S+) sport=(\\d+) dport=(\\d+).*?src=(\\S+) dst=(\\S+) sport=(\\d+) dport=(\\d+)");

    /** Runs {@code conntrack <args>} (in the backend's network namespace). Blocks. */
    @FunctionalInterface
    public interface Tool {
        /** Exit code and output of {@code conntrack <args>}; never null. */
        Output run(List<String> args);
    }

    /** Exit code and output of one {@code conntrack} run. Immutable; no field is null. */
    public record Output(int exitCode, String stdout, String stderr) {
        public Output {
            if (stdout == null || stderr == null) {
                throw new IllegalArgumentException("stdout and stderr are required");
            }
        }
    }

    private final Tool tool;

    /** A cleaner running {@code conntrack} through {@code tool}. */
    public ConntrackCleaner(Tool tool) {
        if (tool == null) {
            throw new IllegalArgumentException("tool is required");
        }
        this.tool = tool;
    }

    @Override
    public int delete(List<ConntrackFilter> filters) throws KernelException {
        int deleted = 0;
        for (ConntrackFilter f : filters) {
            String fam = f.family() == IpFamily.IPV4 ? "ipv4" : "ipv6";
            List<String> list = new ArrayList<>(List.of("-L", "-f", fam, "-p", f.protocol().lowerName()));
            f.originalDestination().ifPresent(ip -> list.addAll(List.of("--orig-dst", ip.toString())));
            list.addAll(List.of("--orig-port-dst", Integer.toString(f.originalPort())));
            Output out = tool.run(list);
            if (out.exitCode() != 0) {
                throw new KernelException(KernelException.Kind.RETRYABLE, "conntrack -L failed: " + out.stderr().strip());
            }
            for (String line : out.stdout().split("\n")) {
                Matcher m = FLOW.matcher(line);
                if (!m.find()) {
                    continue;
                }
                IpAddress origSrc = IpAddress.parse(m.group(1));
                IpAddress origDst = IpAddress.parse(m.group(2));
                IpAddress replySrc = IpAddress.parse(m.group(5));
                if (!f.matches(origDst, Integer.parseInt(m.group(4)), replySrc)) {
                    continue;
                }
                Output d = tool.run(List.of("-D", "-f", fam, "-p", f.protocol().lowerName(), "--orig-src", origSrc.toString(),
                        "--orig-dst", origDst.toString(), "--orig-port-src", m.group(3), "--orig-port-dst", m.group(4), "--reply-src",
                        replySrc.toString()));
                // Exit 1 with "0 flow entries" means it expired meanwhile: nothing to do.
                if (d.exitCode() == 0) {
                    deleted++;
                }
            }
        }
        LOG.info("conntrack cleanup filters={} deleted={}", filters.size(), deleted);
        return deleted;
    }
}
