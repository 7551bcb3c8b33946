package io.kproxy.source.kube.internal;

import io.kproxy.source.kube.ClientConfigException;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * The API server's URL, checked: {@code https://host[:port]} or {@code http://…}; a bare
 * {@code host:port} means https, as in client-go ({@code rest.DefaultServerURL}).
 */
final class MasterUrl {

    private MasterUrl() {
    }

    /** {@code url} with a scheme; throws naming {@code origin} and {@code field} when it is not an API server URL. */
    static String check(String url, String origin, String field) {
        String withScheme = url.contains("://") ? url : "https://" + url;
        URI u;
        try {
            u = new URI(withScheme);
        } catch (URISyntaxException e) {
            throw new ClientConfigException(origin, field, "not a URL: " + e.getReason());
        }
        if (!("https".equals(u.getScheme()) || "http".equals(u.getScheme())) || u.getHost() == null) {
            throw new ClientConfigException(origin, field, "not an http(s) URL with a host: " + url);
        }
        if (u.getRawUserInfo() != null) {
            throw new ClientConfigException(origin, field, "must not carry user information");
        }
        return withScheme;
    }
}
