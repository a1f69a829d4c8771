package io.seqsync.projector.postgres;

import io.seqsync.store.StoredMessage;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * Writes a batch's message actions inside the projection's transaction, after its messages and
 * recalls: replies and mentions beside their rows, edits into the edited message's row (never a
 * recalled one), reactions into {@code message_reactions} with the message's count, and what a
 * recall undoes: the message's reactions and edit mark, and the text of its edit notices (its
 * edits vanish with it). A message older than the hot window is in the archive (R22): what finds
 * no row in {@code messages} applies there. Stateless.
 */
final class MessageActionsWriter {
  private static final String EDIT = "update %s set content = ?, edited_at = ? where conv_id = ? and seq = ? and not recalled";
  private static final String COUNT_REACTIONS = "update %s m set reactions = (select count(*) from message_reactions r"
      + " where r.conv_id = m.conv_id and r.seq = m.seq) where m.conv_id = ? and m.seq = ?";
  private static final String UNDO_ACTIONS = "update %s set edited_at = null, reactions = 0 where conv_id = ? and seq = ?";
  // An edit notice's content is {"seq":N,"content":...}: those naming the recalled seq, after it.
  private static final String BLANK_EDITS = "update %s set recalled = true, content = ? where conv_id = ? and seq > ?"
      + " and type = 'edit' and not recalled and (content::jsonb ->> 'seq')::bigint = ?";

  private MessageActionsWriter() {}

  static void write(Handle handle, ActionsPlan actions, List<ProjectionPlan.Recall> recalls) {
    PreparedBatch sent = handle.prepareBatch("update messages set reply_to = ?, mentions = ? where conv_id = ? and seq = ?");
    for (ActionsPlan.Sent message : actions.sent) {
      sent.bind(0, message.replyTo()).bind(2, message.convId()).bind(3, message.seq());
      (message.mentions().isEmpty() ? sent.bindNull(1, Types.ARRAY) : sent.bindArray(1, Long.class, message.mentions()))
          .add();
    }
    execute(sent);
    mentions(handle, actions.sent, actions.readReports);
    bothTiers(handle, EDIT, actions.edits.stream()
        .map(edit -> new Object[] {edit.content(), edit.time(), edit.convId(), edit.seq()}).toList());
    react(handle, actions.reactions);
    if (!recalls.isEmpty()) {
      PreparedBatch reactions = handle.prepareBatch("delete from message_reactions where conv_id = ? and seq = ?");
      recalls.forEach(recall -> reactions.add(recall.convId(), recall.seq()));
      execute(reactions);
      PreparedBatch mentions = handle.prepareBatch("delete from mentions where conv_id = ? and seq = ?");
      recalls.forEach(recall -> mentions.add(recall.convId(), recall.seq()));
      execute(mentions);
      List<Object[]> recalled = recalls.stream().map(recall -> new Object[] {recall.convId(), recall.seq()}).toList();
      bothTiers(handle, UNDO_ACTIONS, recalled);
      for (String table : List.of("messages", "archived_messages")) {
        PreparedBatch blank = handle.prepareBatch(BLANK_EDITS.formatted(table));
        recalls.forEach(recall -> blank.add(StoredMessage.RECALLED_PLACEHOLDER, recall.convId(), recall.seq(), recall.seq()));
        execute(blank);
      }
    }
  }

  // A mention stays until the mentioned user reports reading it (the sender's own aside); the counts
  // only count those above the read position, so this keeps the table small, not the counts right.
  private static void mentions(Handle handle, List<ActionsPlan.Sent> sent, Map<ProjectionPlan.UserPosition, Long> reads) {
    PreparedBatch mentions = handle.prepareBatch("insert into mentions (user_id, conv_id, seq) values (?, ?, ?)"
        + " on conflict do nothing");
    sent.forEach(message -> message.mentions().stream().filter(userId -> userId != message.senderId())
        .forEach(userId -> mentions.add(userId, message.convId(), message.seq())));
    execute(mentions);
    if (!reads.isEmpty()) {
      handle.createUpdate("delete from mentions m using unnest(:userIds, :convIds, :seqs) as r(user_id, conv_id, seq)"
              + " where m.user_id = r.user_id and m.conv_id = r.conv_id and m.seq <= r.seq")
          .bindArray("userIds", Long.class, reads.keySet().stream().map(ProjectionPlan.UserPosition::userId).toArray())
          .bindArray("convIds", String.class, reads.keySet().stream().map(ProjectionPlan.UserPosition::convId).toArray())
          .bindArray("seqs", Long.class, reads.values().toArray())
          .execute();
    }
  }

  // Each user's reaction ends the batch added or removed: its last change counts.
  private static void react(Handle handle, List<ActionsPlan.Reaction> changes) {
    if (changes.isEmpty()) {
      return;
    }
    Map<List<Object>, ActionsPlan.Reaction> last = new LinkedHashMap<>();
    Set<List<Object>> targets = new LinkedHashSet<>();
    for (ActionsPlan.Reaction change : changes) {
      last.put(List.of(change.convId(), change.seq(), change.emoji(), change.userId()), change);
      targets.add(List.of(change.convId(), change.seq()));
    }
    PreparedBatch inserts = handle.prepareBatch("insert into message_reactions (conv_id, seq, emoji, user_id, created_at)"
        + " values (?, ?, ?, ?, ?) on conflict do nothing");
    PreparedBatch deletes = handle.prepareBatch(
        "delete from message_reactions where conv_id = ? and seq = ? and emoji = ? and user_id = ?");
    for (ActionsPlan.Reaction change : last.values()) {
      if (change.added()) {
        inserts.add(change.convId(), change.seq(), change.emoji(), change.userId(), change.time());
      } else {
        deletes.add(change.convId(), change.seq(), change.emoji(), change.userId());
      }
    }
    execute(deletes);
    execute(inserts);
    bothTiers(handle, COUNT_REACTIONS, targets.stream().map(List::toArray).toList());
  }

  // The statement on the hot table, then on the archive for the rows that matched nothing there.
  private static void bothTiers(Handle handle, String statement, List<Object[]> rows) {
    List<Object[]> missed = rows;
    for (String table : List.of("messages", "archived_messages")) {
      if (missed.isEmpty()) {
        return;
      }
      PreparedBatch batch = handle.prepareBatch(statement.formatted(table));
      missed.forEach(batch::add);
      int[] updated = batch.execute();
      List<Object[]> next = new ArrayList<>();
      for (int i = 0; i < updated.length; i++) {
        if (updated[i] == 0) {
          next.add(missed.get(i));
        }
      }
      missed = next;
    }
  }

  // An empty PreparedBatch must not be executed: skip it.
  private static void execute(PreparedBatch batch) {
    if (batch.size() > 0) {
      batch.execute();
    }
  }
}
