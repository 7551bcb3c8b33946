package io.kproxy.source.kube.internal;

import io.kproxy.source.kube.ClientConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * client-go's {@code rest.InClusterConfig} ({@code staging/src/k8s.io/client-go/rest/config.go}),
 * which kube-proxy uses when given neither a kubeconfig nor {@code --master}: the server from
 * {@code KUBERNETES_SERVICE_HOST} and {@code KUBERNETES_SERVICE_PORT}, the service account's
 * projected token re-read every minute ({@link FileToken}), its {@code ca.crt} (a missing CA is
 * logged and the system's trust used, as client-go does). Stateless.
 */
public final class InCluster {

    /** Where the kubelet mounts the service account. */
    public static final Path SERVICE_ACCOUNT = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");

    private static final Logger LOG = LoggerFactory.getLogger(InCluster.class);
    static final String ORIGIN = "in-cluster configuration";

    private InCluster() {
    }

    /** The process's own in-cluster settings. */
    public static ClientSettings resolve() {
        return resolve(System.getenv(), SERVICE_ACCOUNT);
    }

    /**
     * @param env the environment to read the service's address from
     * @param dir the service account directory ({@code token}, {@code ca.crt})
     * @throws ClientConfigException when the environment or the token is missing
     */
    public static ClientSettings resolve(Map<String, String> env, Path dir) {
        String host = env.getOrDefault("KUBERNETES_SERVICE_HOST", "");
        String port = env.getOrDefault("KUBERNETES_SERVICE_PORT", "");
        if (host.isEmpty() || port.isEmpty()) {
            throw new ClientConfigException(ORIGIN, "KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT",
                    "not set: not running in a pod; give --kubeconfig or --master");
        }
        String server = "https://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        Path token = dir.resolve("token");
        try {
            FileToken.readOnce(token);
        } catch (CredentialException e) {
            throw new ClientConfigException(ORIGIN, "service account token", e.getMessage());
        }
        Path ca = dir.resolve("ca.crt");
        String caFile = "";
        if (Files.isReadable(ca)) {
            caFile = ca.toString();
        } else {
            LOG.warn("decision=continue-without-ca reason=\"cannot read {}\" origin=\"{}\"", ca, ORIGIN);
        }
        return new ClientSettings(ORIGIN, MasterUrl.check(server, ORIGIN, "KUBERNETES_SERVICE_HOST"), caFile, "", false, "",
                "", "", "", "", "", "", Optional.of(new FileToken(token)));
    }
}
