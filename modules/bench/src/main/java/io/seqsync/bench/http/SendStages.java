package io.seqsync.bench.http;

import java.util.List;
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
    for (int i = phase.warmupRequests; i < phase.total; i++) {
      SendTracer.Sequenced sequenced = tracer.sequenced(phase.clientMsgId(i));
      if (sequenced == null) {
        continue;
      }
      Long announced = tracer.announcedAt(sequenced.convId(), sequenced.seq());
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
    return traced;
  }
}
