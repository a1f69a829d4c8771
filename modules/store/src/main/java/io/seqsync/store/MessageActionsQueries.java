package io.seqsync.store;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.seqsync.store.shard.ShardMap;

/**
 * The read side of message actions: a message's state from its columns, and for a page the quotes
 * of the messages it replies to and its reactions as the caller sees them (counts, and whether the
 * caller reacted). Two more statements for a page that has replies or reactions, none for one
 * without (the columns tell). Thread-safe: holds only the (thread-safe) Jdbi.
 */
final class MessageActionsQueries {
  private static final String QUOTES = "select seq, sender_id, type, recalled, left(content, " + MessageState.QUOTE_CHARS
      + ") as text from all_messages where conv_id = :conv and seq = any(:seqs)";
  private static final String REACTIONS = "select seq, emoji, count(*) as n, bool_or(user_id = :user) as mine"
      + " from message_reactions where conv_id = :conv and seq = any(:seqs) group by seq, emoji"
      + " order by seq, min(created_at), emoji";

  private final ShardMap shards;

  MessageActionsQueries(ShardMap shards) {
    this.shards = shards;
  }

  /** The state of the columns edited_at, reply_to, mentions, reactions starting at {@code first}. */
  static MessageState state(ResultSet rs, int first) throws SQLException {
    long editedAt = rs.getLong(first);
    boolean edited = !rs.wasNull();
    long replyTo = rs.getLong(first + 1);
    boolean replies = !rs.wasNull();
    Array mentions = rs.getArray(first + 2);
    List<Long> mentioned = mentions == null ? List.of() : Arrays.asList((Long[]) mentions.getArray());
    return MessageState.of(edited ? editedAt : null, replies ? replyTo : null, mentioned, rs.getInt(first + 3));
  }

  List<StoredMessage> decorate(String convId, List<StoredMessage> messages, long userId) {
    List<Long> replied = new ArrayList<>();
    List<Long> reacted = new ArrayList<>();
    for (StoredMessage message : messages) {
      MessageState state = message.state();
      if (state != null && state.replyTo() != null) {
        replied.add(state.replyTo());
      }
      if (state != null && state.reactionCount() > 0) {
        reacted.add(message.seq());
      }
    }
    if (replied.isEmpty() && reacted.isEmpty()) {
      return messages;
    }
    Map<Long, MessageState.Quote> quotes = replied.isEmpty() ? Map.of() : quotes(convId, replied);
    Map<Long, List<MessageState.Reaction>> reactions = reacted.isEmpty() ? Map.of() : reactions(convId, reacted, userId);
    return messages.stream().map(message -> message.state() == null ? message : message.withState(message.state()
            .with(message.state().replyTo() == null ? null : quotes.get(message.state().replyTo()),
                reactions.getOrDefault(message.seq(), List.of()))))
        .toList();
  }

  private Map<Long, MessageState.Quote> quotes(String convId, List<Long> seqs) {
    Map<Long, MessageState.Quote> quotes = new HashMap<>();
    shards.of(convId).useHandle(handle -> handle.createQuery(QUOTES).bind("conv", convId).bindArray("seqs", Long.class, seqs)
        .map((rs, ctx) -> new MessageState.Quote(rs.getLong("seq"), rs.getLong("sender_id"), rs.getString("type"),
            rs.getBoolean("recalled") ? StoredMessage.RECALLED_PLACEHOLDER : rs.getString("text")))
        .forEach(quote -> quotes.put(quote.seq(), quote)));
    return quotes;
  }

  private Map<Long, List<MessageState.Reaction>> reactions(String convId, List<Long> seqs, long userId) {
    Map<Long, List<MessageState.Reaction>> reactions = new HashMap<>();
    shards.of(convId).useHandle(handle -> handle.createQuery(REACTIONS).bind("conv", convId).bind("user", userId)
        .bindArray("seqs", Long.class, seqs)
        .map((rs, ctx) -> Map.entry(rs.getLong("seq"),
            new MessageState.Reaction(rs.getString("emoji"), rs.getLong("n"), rs.getBoolean("mine"))))
        .forEach(entry -> reactions.computeIfAbsent(entry.getKey(), seq -> new ArrayList<>()).add(entry.getValue())));
    return reactions;
  }
}
