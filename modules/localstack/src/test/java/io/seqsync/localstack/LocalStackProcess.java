package io.seqsync.localstack;

import io.seqsync.config.ConfigLoader;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

/** A process that starts a LocalStack from {@code key=value} settings and keeps it up until killed or stopped (for tests). */
public final class LocalStackProcess {
  private LocalStackProcess() {}

  public static void main(String[] args) throws InterruptedException {
    Map<String, String> settings = Arrays.stream(args).map(arg -> arg.split("=", 2))
        .collect(Collectors.toMap(pair -> pair[0], pair -> pair[1]));
    LocalStack stack = LocalStack.start(ConfigLoader.of(settings));
    // As the app does on SIGTERM: it closes the stack in a shutdown hook, after its own components,
    // seconds in; meanwhile the servers' own shutdown hooks (zonky's, embedded-redis's) stop them.
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        Thread.sleep(3_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      stack.close();
    }));
    System.out.println("local stack up");
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
