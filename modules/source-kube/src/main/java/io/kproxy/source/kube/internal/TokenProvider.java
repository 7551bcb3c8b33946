package io.kproxy.source.kube.internal;

import io.fabric8.kubernetes.client.OAuthTokenProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bridge from a {@link TokenSource} to fabric8, which asks for the token inside its HTTP
 * client's request path, where an exception would escape synchronously into the informer's start
 * or retry (and stop it). A failure to obtain a token (an unreadable token file, a failing exec
 * plugin) is logged at WARN once per episode, with its reason and never a token, and the request
 * goes without one: the API server's 401 then drives the informer's ordinary retry, and each
 * retry tries the source again. Thread-safe.
 */
public final class TokenProvider implements OAuthTokenProvider {

    private static final Logger LOG = LoggerFactory.getLogger(TokenProvider.class);

    private final TokenSource source;
    private final String address;
    private boolean failing;   // guarded by this

    public TokenProvider(TokenSource source, String address) {
        this.source = source;
        this.address = address;
    }

    @Override
    public String getToken() {
        try {
            String token = source.getToken();
            synchronized (this) {
                if (failing) {
                    LOG.info("decision=credential-available-again source=\"{}\"", source.describe());
                    failing = false;
                }
            }
            return token;
        } catch (CredentialException e) {
            synchronized (this) {
                if (!failing) {
                    LOG.warn("decision=send-without-token address={} reason=credentials source=\"{}\" detail=\"{}\"", address,
                            source.describe(), Redactor.scrub(e.getMessage()));
                    failing = true;
                } else {
                    LOG.debug("decision=send-without-token reason=credentials repeat=true detail=\"{}\"", Redactor.scrub(e.getMessage()));
                }
            }
            return null;
        }
    }
}
