package io.seqsync.store.shard;

import io.seqsync.localstack.LocalPostgres;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.Database;
import io.seqsync.store.SyncQueries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jdbi.v3.core.Jdbi;

/**
 * Not a test (run by hand, docs/design.md "Shards"): the time of the list's PostgreSQL path and of a
 * handshake page for one user of {@code conversations} direct conversations, on one database and
 * on two shards (partitions 0-2 and 3-5 of 6; two PostgreSQL servers), same run, same data.
 * {@code java ... ShardFanOutMeasure [conversations] [repeats]}.
 */
public final class ShardFanOutMeasure {
  private static final int PARTITIONS = 6;

  public static void main(String[] args) throws Exception {
    int conversations = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
    int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    Path dir = Files.createTempDirectory("seqsync-shard-measure-");
    try (LocalPostgres first = LocalPostgres.start(dir.resolve("pg0"), 0);
        LocalPostgres second = LocalPostgres.start(dir.resolve("pg1"), 0);
        Database single = Database.open(first.createDatabase("single"), first.user(), first.password(), 4);
        Database shard0 = Database.open(first.createDatabase("shard0"), first.user(), first.password(), 4);
        Database shard1 = Database.open(second.createDatabase("shard1"), second.user(), second.password(), 4)) {
      int[] shardOfPartition = {0, 0, 0, 1, 1, 1};
      for (int peer = 2; peer < conversations + 2; peer++) {
        String conv = "d:1:" + peer;
        load(single.jdbi(), conv, peer);
        load(shardOfPartition[ConversationPartitions.of(conv, PARTITIONS)] == 0 ? shard0.jdbi() : shard1.jdbi(), conv, peer);
      }
      ShardMap one = ShardMap.single(single.jdbi());
      ShardMap two = ShardMap.of(List.of(shard0.jdbi(), shard1.jdbi()), shardOfPartition);
      System.out.printf("user with %,d conversations, %d repeats, load average %s%n", conversations, repeats,
          Files.readString(Path.of("/proc/loadavg")).strip());
      System.out.println("| read | 1 shard p50 | 1 shard p90 | 2 shards p50 | 2 shards p90 |");
      System.out.println("|---|---:|---:|---:|---:|");
      row("list, 50 entries (PostgreSQL path)", repeats,
          () -> new ConversationQueries(one).list(1, 50, null).size(), () -> new ConversationQueries(two).list(1, 50, null).size());
      row("handshake page, 500 conversations", repeats,
          () -> new SyncQueries(one, 500, 0, 0).page(1, "phone", Map.of(), null).rows().size(),
          () -> new SyncQueries(two, 500, 0, 0).page(1, "phone", Map.of(), null).rows().size());
    }
  }

  private static void load(Jdbi jdbi, String conv, int peer) {
    jdbi.useTransaction(handle -> {
      handle.execute("insert into conversations (conv_id, kind, latest_seq, last_activity) values (?, 'direct', 1, ?)",
          conv, 1_700_000_000_000L + peer);
      handle.execute("insert into conversation_members (conv_id, user_id) values (?, 1), (?, ?)", conv, conv, peer);
      handle.execute("insert into messages (conv_id, seq, msg_id, sender_id, sender_device, client_msg_id, type, content,"
          + " create_time) values (?, 1, ?, ?, 'phone', ?, 'text', 'hello', ?)", conv, (long) peer, (long) peer,
          "c" + peer, 1_700_000_000_000L + peer);
    });
  }

  private static void row(String name, int repeats, Supplier<Integer> single, Supplier<Integer> sharded) {
    long[] one = time(repeats, single);
    long[] two = time(repeats, sharded);
    System.out.printf("| %s | %.2f ms | %.2f ms | %.2f ms | %.2f ms |%n", name, one[repeats / 2] / 1e6,
        one[repeats * 9 / 10] / 1e6, two[repeats / 2] / 1e6, two[repeats * 9 / 10] / 1e6);
  }

  // Alternating would interleave caches; each side warmed up first, then timed.
  private static long[] time(int repeats, Supplier<Integer> read) {
    List<Integer> sizes = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      sizes.add(read.get());
    }
    long[] nanos = new long[repeats];
    for (int i = 0; i < repeats; i++) {
      long began = System.nanoTime();
      sizes.add(read.get());
      nanos[i] = System.nanoTime() - began;
    }
    if (sizes.stream().distinct().count() != 1) {
      throw new IllegalStateException("answers of different sizes: " + sizes.stream().distinct().toList());
    }
    Arrays.sort(nanos);
    return nanos;
  }
}
