package io.kproxy.source.kube.internal;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** A file error in a few words, without the JDK's message (which may quote more than a path). */
final class IoReason {

    private IoReason() {
    }

    static String of(IOException e) {
        return switch (e) {
            case NoSuchFileException _ -> "no such file";
            case AccessDeniedException _ -> "permission denied";
            case NotDirectoryException _ -> "a parent is not a directory";
            case java.nio.charset.CharacterCodingException _ -> "not UTF-8 text";
            default -> e.getClass().getSimpleName();
        };
    }
}
