package io.kproxy.source.kube.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/**
 * The algorithm of a PEM client key, for fabric8 (which takes a PKCS#8 {@code PRIVATE KEY} for
 * RSA and fails on an EC one): {@code RSA PRIVATE KEY} is RSA, {@code EC PRIVATE KEY} is EC, and a
 * PKCS#8 key is whichever of RSA and EC decodes it, as Go's {@code x509.ParsePKCS8PrivateKey}
 * finds it from the key itself. Stateless; never puts key material into a message.
 */
final class KeyAlgorithm {

    private KeyAlgorithm() {
    }

    /**
     * @param file a key file, or ""
     * @param data a base64 PEM key, or ""
     * @return the algorithm, or "" when it cannot be told (fabric8 then guesses)
     */
    static String of(String file, String data) {
        String pem;
        try {
            pem = file.isEmpty() ? new String(Base64.getDecoder().decode(data.replaceAll("\\s", "")), StandardCharsets.US_ASCII)
                    : Files.readString(Path.of(file), StandardCharsets.US_ASCII);
        } catch (IOException | IllegalArgumentException e) {
            return "";
        }
        if (pem.contains("-----BEGIN RSA PRIVATE KEY-----")) {
            return "RSA";
        }
        if (pem.contains("-----BEGIN EC PRIVATE KEY-----")) {
            return "EC";
        }
        int begin = pem.indexOf("-----BEGIN PRIVATE KEY-----");
        int end = pem.indexOf("-----END PRIVATE KEY-----");
        if (begin < 0 || end < begin) {
            return "";
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(pem.substring(begin + "-----BEGIN PRIVATE KEY-----".length(), end));
        } catch (IllegalArgumentException e) {
            return "";
        }
        for (String algorithm : new String[] {"RSA", "EC"}) {
            try {
                KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
                return algorithm;
            } catch (GeneralSecurityException e) {
                // not this one
            }
        }
        return "";
    }
}
