package io.seqsync.projector.replay;

import io.seqsync.config.SeqsyncConfig;
import java.io.PrintStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code seqsync replay}: runs a {@link ProjectionReplay} and says what it rebuilt, or why it refused or failed. */
public final class ReplayCommand {
  private static final Logger log = LoggerFactory.getLogger(ReplayCommand.class);

  private ReplayCommand() {}

  /** Replays; returns the exit code: 0 done, 1 refused or failed. */
  public static int run(SeqsyncConfig config, PrintStream out, PrintStream err) {
    if (config.postgres().shards().configured()) {
      // A replay rebuilds one PostgreSQL from every partition; a shard is rebuilt from its own range.
      err.println("replay refused, nothing changed: postgres.shards is set; rebuild a shard into an empty primary with"
          + " `move-partitions copy FIRST-LAST JDBC_URL` (docs/operations.md, \"Moving partitions to a new shard\")");
      return 1;
    }
    try {
      ProjectionReplay.Summary summary = ProjectionReplay.run(config);
      out.printf("replayed in %.1f s: emptied %d tables and %d Redis keys; %,d event offsets -> %,d messages in %,d"
              + " conversations; %,d telemetry offsets -> %,d renders, %,d delivery cases%n",
          summary.took().toMillis() / 1000.0, summary.tables().size(), summary.redisKeys(), summary.eventOffsets(),
          summary.messages(), summary.conversations(), summary.telemetryOffsets(), summary.renders(), summary.deliveryCases());
      return 0;
    } catch (ProjectionReplay.Refused e) {
      err.println("replay refused, nothing changed: " + e.getMessage());
      return 1;
    } catch (RuntimeException e) {
      log.error("replay failed", e);
      err.println("replay failed: " + e.getMessage() + " (a replay that failed after emptying the tables"
          + " leaves them part-rebuilt: run it again)");
      return 1;
    }
  }
}
