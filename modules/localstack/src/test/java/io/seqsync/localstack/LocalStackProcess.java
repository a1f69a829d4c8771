package io.seqsync.localstack;

import io.seqsync.config.ConfigLoader;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

/** A process that starts a LocalStack from {@code key=value} settings and keeps it up until killed (for tests). */
public final class LocalStackProcess {
  private LocalStackProcess() {}

  public static void main(String[] args) throws InterruptedException {
    Map<String, String> settings = Arrays.stream(args).map(arg -> arg.split("=", 2))
        .collect(Collectors.toMap(pair -> pair[0], pair -> pair[1]));
    LocalStack.start(ConfigLoader.of(settings));
    System.out.println("local stack up");
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
