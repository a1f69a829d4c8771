package io.seqsync.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * scripts/jvm.options is read by scripts/run, the Docker image and the benchmarks: an option the
 * JVM does not know would stop all of them, and nothing else would notice before a deployment.
 */
class JvmOptionsTest {
  // Maven runs the tests in the module's directory.
  private static final Path OPTIONS = Path.of("../../scripts/jvm.options").toAbsolutePath().normalize();

  @Test
  void theJvmStartsWithEveryOptionOfTheFileInEffectAndTheHeapAtItsMaximum() throws IOException, InterruptedException {
    List<String> options = Files.readAllLines(OPTIONS).stream()
        .map(String::strip).filter(line -> !line.isEmpty() && !line.startsWith("#")).toList();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process = new ProcessBuilder(java, "@" + OPTIONS, "-XX:+PrintCommandLineFlags", "-version")
        .redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    assertThat(options).isNotEmpty();
    // The first line: -XX:+Name, -XX:-Name or -XX:Name=value, as the JVM holds them (25 prints as 25.000000).
    Map<String, String> flags = Arrays.stream(output.lines().findFirst().orElse("").split(" "))
        .filter(flag -> flag.startsWith("-XX:")).collect(Collectors.toMap(JvmOptionsTest::name, JvmOptionsTest::value));
    for (String option : options) {
      assertThat(flags).as(option).containsKey(name(option));
      String value = value(option);
      if (value.matches("[0-9.]+")) {
        assertThat(Double.parseDouble(flags.get(name(option)))).as(option).isEqualTo(Double.parseDouble(value));
      } else {
        assertThat(flags.get(name(option))).as(option).isEqualTo(value);
      }
    }
    assertThat(flags.get("InitialHeapSize")).isEqualTo(flags.get("MaxHeapSize"));
  }

  private static String name(String flag) {
    String body = flag.substring("-XX:".length());
    int equals = body.indexOf('=');
    return equals >= 0 ? body.substring(0, equals) : body.substring(1);
  }

  private static String value(String flag) {
    String body = flag.substring("-XX:".length());
    int equals = body.indexOf('=');
    return equals >= 0 ? body.substring(equals + 1) : body.substring(0, 1);
  }
}
