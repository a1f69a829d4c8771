package io.seqsync.app;

import java.util.ArrayList;
import java.util.List;

/**
 * How long each phase of a start took, for the start's log line: where a restart's seconds go
 * (docs/design.md, "Restart"). Not thread-safe: the starting thread's.
 */
final class StartupPhases {
  private final long began = System.nanoTime();
  private final List<String> phases = new ArrayList<>();
  private long last = began;

  void done(String phase) {
    long now = System.nanoTime();
    phases.add(phase + " " + (now - last) / 1_000_000 + " ms");
    last = now;
  }

  long totalMillis() {
    return (last - began) / 1_000_000;
  }

  @Override
  public String toString() {
    return String.join(", ", phases);
  }
}
