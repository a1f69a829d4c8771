package io.seqsync.projector.replay;

import io.seqsync.config.Endpoints;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.Servers;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.events.Topics;
import io.seqsync.projector.PartitionMove;
import io.seqsync.store.Database;
import java.io.PrintStream;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * {@code seqsync move-partitions copy FIRST-LAST JDBC_URL}: projects those partitions of the
 * events topic from the event log into the primary at JDBC_URL (run it while the apps serve, as
 * often as wanted: it resumes); {@code seqsync move-partitions prune FIRST-LAST JDBC_URL}: deletes
 * those partitions' conversations from the old primary at JDBC_URL (with every app stopped, after
 * the switch). docs/operations.md, "Moving partitions to a new shard".
 */
public final class MoveCommand {
  private MoveCommand() {}

  /** Returns the exit code: 0 done, 1 failed, 2 bad arguments. */
  public static int run(String[] args, SeqsyncConfig config, PrintStream out, PrintStream err) {
    if (args.length != 3 || !(args[0].equals("copy") || args[0].equals("prune")) || !args[1].matches("\\d+(-\\d+)?")) {
      err.println("usage: seqsync move-partitions copy|prune FIRST-LAST JDBC_URL");
      return 2;
    }
    String[] bounds = args[1].split("-");
    int first = Integer.parseInt(bounds[0]);
    int last = Integer.parseInt(bounds[bounds.length - 1]);
    int partitionCount = config.kafka().eventPartitions();
    if (last < first || last >= partitionCount) {
      err.println("partitions " + args[1] + " are not within 0-" + (partitionCount - 1));
      return 2;
    }
    Set<Integer> partitions = IntStream.rangeClosed(first, last).boxed().collect(Collectors.toSet());
    String topic = Topics.from(config.kafka()).events().name();
    try (Servers servers = Servers.start(config);
        Database database = Database.open(args[2], config.postgres().user(), config.postgres().password(), 2)) {
      if (args[0].equals("copy")) {
        // erased_users is the home shard's (partition 0's primary).
        Endpoints at = servers.endpoints();
        String home = config.postgres().shards().urlOfPartition(1, at.postgresJdbcUrl()).get(0);
        try (Database homeDatabase = Database.open(home, at.postgresUser(), at.postgresPassword(), 1)) {
          long events = PartitionMove.copy(KafkaConnection.of(config.kafka(), at), topic, partitions, database.jdbi(),
              homeDatabase.jdbi(), config.projector().maxPollRecords());
          out.printf("copied %,d events of partitions %s into %s%n", events, args[1], args[2]);
        }
      } else {
        long rows = PartitionMove.prune(database.jdbi(), topic, partitions, partitionCount);
        out.printf("pruned %,d rows of partitions %s from %s%n", rows, args[1], args[2]);
      }
      return 0;
    } catch (RuntimeException e) {
      err.println("move-partitions " + args[0] + " failed: " + e.getMessage());
      return 1;
    }
  }
}
