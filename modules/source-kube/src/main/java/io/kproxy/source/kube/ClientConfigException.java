package io.kproxy.source.kube;

/**
 * The API client cannot be configured: a kubeconfig that cannot be read or parsed, a field that
 * is missing or names a file that cannot be read, an in-cluster configuration without its
 * environment. Names the field (a kubeconfig path such as {@code users[kube-proxy].user.tokenFile})
 * and the reason; never carries a credential (a token, a key, a password), only the names of the
 * files that hold them.
 */
public final class ClientConfigException extends IllegalArgumentException {

    private final String field;
    private final String reason;

    /**
     * @param source where the setting comes from ({@code kubeconfig /etc/kproxy/kubeconfig.conf},
     *               {@code in-cluster configuration})
     * @param field  the field that is wrong
     * @param reason why; must not contain a credential
     */
    public ClientConfigException(String source, String field, String reason) {
        super(source + ": " + field + ": " + reason);
        this.field = field;
        this.reason = reason;
    }

    /** The field that is wrong. */
    public String field() {
        return field;
    }

    /** Why it is wrong. */
    public String reason() {
        return reason;
    }
}
