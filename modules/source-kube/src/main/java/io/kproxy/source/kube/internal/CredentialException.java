package io.kproxy.source.kube.internal;

/**
 * A credential could not be obtained (a token file that cannot be read, an exec plugin that
 * failed). The message names the file or the command and the reason, never the credential.
 */
public final class CredentialException extends RuntimeException {

    public CredentialException(String message) {
        super(message);
    }

    public CredentialException(String message, Throwable cause) {
        super(message, cause);
    }
}
