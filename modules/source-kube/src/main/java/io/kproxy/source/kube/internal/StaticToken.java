package io.kproxy.source.kube.internal;

/** A kubeconfig's inline {@code token}: sent as given (checked once). Immutable. */
public record StaticToken(String token) implements TokenSource {

    public StaticToken {
        token = TokenSource.checked(token, "token");
    }

    @Override
    public String getToken() {
        return token;
    }

    @Override
    public void expire() {
        // nothing to refresh
    }

    @Override
    public String describe() {
        return "token";
    }

    /** Never the token itself. */
    @Override
    public String toString() {
        return "StaticToken[redacted]";
    }
}
