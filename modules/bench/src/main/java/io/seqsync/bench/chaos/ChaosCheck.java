package io.seqsync.bench.chaos;

import io.seqsync.analytics.TopicScan;
import io.seqsync.config.KafkaConnection;
import io.seqsync.events.Topics;
import io.seqsync.events.model.MessageAppended;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The independent checker: what the event log holds (read {@code read_committed}, from the start)
 * and what PostgreSQL's {@code messages} table holds, against what the client was acknowledged.
 * Knows nothing of the app but its topics and its table.
 */
final class ChaosCheck {
  /** One stored copy of a message: its conversation, seq and clientMsgId. */
  record Stored(String conv, long seq, String clientMsgId) {}

  /** What a store holds: every conversation's messages in seq order. */
  record Holding(Map<String, List<Stored>> byConv) {
    /** How many times each clientMsgId is held. */
    Map<String, Integer> copies() {
      Map<String, Integer> copies = new HashMap<>();
      byConv.values().forEach(list -> list.forEach(stored -> copies.merge(stored.clientMsgId(), 1, Integer::sum)));
      return copies;
    }

    /** Each seq missing below a conversation's highest, with its conversation: {@code conv#seq}. */
    List<String> gaps() {
      List<String> gaps = new ArrayList<>();
      byConv.forEach((conv, list) -> {
        long expected = 1;
        for (Stored stored : list) {
          while (expected < stored.seq()) {
            gaps.add(conv + "#" + expected++);
          }
          expected = Math.max(expected, stored.seq() + 1);
        }
      });
      return gaps;
    }

    Map<String, Long> seqs() {
      Map<String, Long> seqs = new HashMap<>();
      byConv.values().forEach(list -> list.forEach(stored -> seqs.put(stored.clientMsgId(), stored.seq())));
      return seqs;
    }
  }

  private ChaosCheck() {}

  /** What the event log holds; read again (up to 3 times) when no broker answered in time (a loaded machine). */
  static Holding eventLog(String bootstrapServers, Topics topics) {
    for (int attempt = 1; ; attempt++) {
      try {
        return eventLogOnce(bootstrapServers, topics);
      } catch (IllegalStateException noAnswer) {
        ChaosRun.log("reading the event log, attempt " + attempt + " of 3: " + noAnswer.getMessage());
        if (attempt == 3) {
          throw noAnswer;
        }
      }
    }
  }

  private static Holding eventLogOnce(String bootstrapServers, Topics topics) {
    Map<String, List<Stored>> byConv = new HashMap<>();
    TopicScan.read(KafkaConnection.plain(bootstrapServers), topics.events(), Optional.empty(), event -> {
      if (event.getPayload() instanceof MessageAppended appended && appended.getMessage().getClientMsgId().startsWith("chaos-")) {
        var message = appended.getMessage();
        byConv.computeIfAbsent(message.getConvId(), conv -> new ArrayList<>())
            .add(new Stored(message.getConvId(), message.getSeq(), message.getClientMsgId()));
      }
    });
    byConv.values().forEach(list -> list.sort(Comparator.comparingLong(Stored::seq)));
    return new Holding(byConv);
  }

  /** What every shard's {@code messages} holds, each primary in {@code jdbcUrls} read in turn. */
  static Holding postgres(List<String> jdbcUrls, Collection<String> convs) throws SQLException {
    Map<String, List<Stored>> byConv = new HashMap<>();
    for (String jdbcUrl : jdbcUrls) {
      try (Connection connection = DriverManager.getConnection(jdbcUrl, "postgres", "");
          PreparedStatement query = connection.prepareStatement("select conv_id, seq, client_msg_id from messages"
              + " where conv_id = any(?) and client_msg_id like 'chaos-%'")) {
        query.setArray(1, connection.createArrayOf("text", convs.toArray()));
        try (ResultSet rows = query.executeQuery()) {
          while (rows.next()) {
            byConv.computeIfAbsent(rows.getString(1), conv -> new ArrayList<>())
                .add(new Stored(rows.getString(1), rows.getLong(2), rows.getString(3)));
          }
        }
      }
    }
    byConv.values().forEach(list -> list.sort(Comparator.comparingLong(Stored::seq)));
    return new Holding(byConv);
  }
}
