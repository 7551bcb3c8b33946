#!/bin/sh
# Runs kproxy's JMH benchmarks on JDK 25 with the class path Maven wrote at package time.
#   ./mvnw -q -pl modules/bench -am verify -DskipTests     # build (from the repository root)
#   modules/bench/jmh.sh -f 1 -wi 2 -i 3 'io.kproxy.bench.journal.*'
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/.mvn/select-jdk.sh"
target="$root/modules/bench/target"
if [ ! -f "$target/classpath.txt" ]; then
  echo "no $target/classpath.txt: build first with ./mvnw -q -pl modules/bench -am verify -DskipTests" >&2
  exit 1
fi
exec "$JAVA_HOME/bin/java" --sun-misc-unsafe-memory-access=allow -cp "$target/classes:$(cat "$target/classpath.txt")" org.openjdk.jmh.Main "$@"
