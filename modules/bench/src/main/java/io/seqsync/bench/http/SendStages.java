package io.seqsync.bench.http;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The stages of a send's latency, from the send tracer's timestamps (see {@link SendTracer}). */
final class SendStages {
  static final List<String> STAGES = List.of(
      "due → produced", "produced → numbered", "numbered → committed", "committed → announced", "announced → 200");
  static final String TO_ANNOUNCED = "due → announced";

  private SendStages() {}

  /**
   * Splits every measured send that the tracer saw into stages, whatever its answer (a 202's
   * message is sequenced and stored all the same; only its last stage is missing). Returns how
   * many were traced up to the announcement.
   */
  static int split(SendLoad.Phase phase, SendTracer tracer, Map<String, Samples> stages) {
    STAGES.forEach(stage -> stages.put(stage, new Samples()));
    stages.put(TO_ANNOUNCED, new Samples());
    int traced = 0;
    // Only when asked for (-Dbench.timeline): 100,000 formatted lines a phase are not free.
    String dir = System.getProperty("bench.timeline", "");
    StringBuilder timeline = dir.isBlank() ? null
        : new StringBuilder("due epoch ms,latency ms,status,").append(String.join(",", STAGES)).append('\n');
    for (int i = phase.warmupRequests; i < phase.total; i++) {
      SendTracer.Sequenced sequenced = tracer.sequenced(phase.clientMsgId(i));
      Long announced = sequenced == null ? null : tracer.announcedAt(sequenced.convId(), sequenced.seq());
      if (timeline != null) {
        timeline.append(String.format(Locale.ROOT, "%.1f,%.1f,%d", phase.dueMs[i], phase.latencyMicros[i] / 1e3,
            phase.status[i]));
        timeline.append(announced == null ? "\n" : String.format(Locale.ROOT, ",%.1f,%d,%d,%d,%.1f%n",
            sequenced.producedAt() - phase.dueMs[i], sequenced.numberedAt() - sequenced.producedAt(),
            sequenced.visibleAt() - sequenced.numberedAt(), announced - sequenced.visibleAt(),
            phase.answeredMs[i] - announced));
      }
      if (announced == null) {
        continue;
      }
      traced++;
      stages.get(STAGES.get(0)).add(Math.round(sequenced.producedAt() - phase.dueMs[i]));
      stages.get(STAGES.get(1)).add(sequenced.numberedAt() - sequenced.producedAt());
      stages.get(STAGES.get(2)).add(sequenced.visibleAt() - sequenced.numberedAt());
      stages.get(STAGES.get(3)).add(announced - sequenced.visibleAt());
      stages.get(TO_ANNOUNCED).add(Math.round(announced - phase.dueMs[i]));
      if (phase.status[i] == 200) {
        stages.get(STAGES.get(4)).add(Math.round(phase.answeredMs[i] - announced));
      }
    }
    if (timeline != null) {
      writeTimeline(dir, phase.tag, timeline);
    }
    return traced;
  }

  // Each measured send of a phase as a line of DIR/{tag}.csv (its due time, latency, status and
  // stages), to line the slow ones up with GC or other events.
  private static void writeTimeline(String dir, String tag, CharSequence lines) {
    try {
      Files.createDirectories(Path.of(dir));
      Files.writeString(Path.of(dir, tag + ".csv"), lines);
    } catch (IOException e) {
      System.err.println("  (cannot write the timeline: " + e + ")");
    }
  }
}
