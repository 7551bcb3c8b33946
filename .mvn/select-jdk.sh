# Sourced by ./mvnw and ./kproxy: make sure a JDK 25 (or newer) is the one used.
# Keeps JAVA_HOME when it already points at one; otherwise looks in /usr/lib/jvm, preferring
# Temurin 25. Fails with a clear message when there is none, instead of a cryptic javac error.
# The feature version of the JDK at $1: from its release file when it has one (no JVM started for
# the check: that was ~0.1 s of every ./kproxy start, docs/benchmarks.md "Scale"), else by asking it.
kproxy_java_feature() {
  if [ -f "$1/release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9][0-9]*\).*/\1/p' "$1/release" | head -n 1)
    if [ -n "$v" ]; then echo "$v"; return 0; fi
  fi
  "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n 1
}
kproxy_select_jdk() {
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    v=$(kproxy_java_feature "$JAVA_HOME")
    if [ -n "$v" ] && [ "${v%%.*}" -ge 25 ] 2>/dev/null; then return 0; fi
  fi
  for candidate in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25-jdk* /usr/lib/jvm/*-25* /usr/lib/jvm/*25*; do
    if [ -x "$candidate/bin/javac" ]; then
      v=$(kproxy_java_feature "$candidate")
      if [ -n "$v" ] && [ "${v%%.*}" -ge 25 ] 2>/dev/null; then
        JAVA_HOME=$candidate
        export JAVA_HOME
        return 0
      fi
    fi
  done
  echo "kproxy needs JDK 25 or newer: set JAVA_HOME to one (none found under /usr/lib/jvm)." >&2
  exit 1
}
kproxy_select_jdk
