package io.seqsync.projector.erasure;

import io.seqsync.redis.ConversationIndex;
import io.seqsync.store.keys.ContentKeys;
import io.seqsync.store.keys.ContentOpener;
import io.seqsync.store.shard.ShardMap;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Retention (docs/design.md, "Erasure"): content sealed more than {@code days} days ago is erased:
 * its keys are deleted (the key store, on the home shard), and on every shard, each in a
 * transaction of its own, the rows that hold its plaintext (messages hot and archived, drafts)
 * read as erased, their seqs kept; on the home shard, the notifier's pending and dead-lettered
 * notifications of that age go too (their payloads preview texts). Then the Redis index forgets
 * the copies it holds: a conversation's last message among those blanked (the list's preview,
 * rebuilt from PostgreSQL on its next read) and the deleted drafts. What Redis could not take is
 * retried at the next run. Idempotent; a run erases what aged since the last. Thread-safe.
 */
public final class Retention {
  /** What one run erased: keys, messages blanked, drafts deleted, notifications deleted. */
  public record Erased(int keys, int messages, int drafts, int notifications) {}

  private record Draft(long userId, String convId, long cutoff) {}

  private final ShardMap shards;
  private final ContentKeys keys;
  private final Duration kept;
  private final ConversationIndex index;
  // What the index still has to forget: per conversation the highest seq blanked, and drafts.
  private final Map<String, Long> previews = new HashMap<>();
  private final List<Draft> drafts = new ArrayList<>();

  public Retention(ShardMap shards, ContentKeys keys, int days, ConversationIndex index) {
    this.shards = shards;
    this.keys = keys;
    this.kept = Duration.ofDays(days);
    this.index = index;
  }

  public synchronized Erased run(Instant now) {
    long cutoff = now.minus(kept).toEpochMilli();
    int erasedKeys = keys.eraseOlderThan(Instant.ofEpochMilli(cutoff));
    int messages = 0;
    int deletedDrafts = 0;
    int notifications = 0;
    for (Jdbi shard : shards.all()) {
      boolean home = shard == shards.home();
      Erased erased = shard.inTransaction(handle -> blank(handle, cutoff, home));
      messages += erased.messages();
      deletedDrafts += erased.drafts();
      notifications += erased.notifications();
    }
    try (ConversationIndex.Batch batch = index.batch()) {
      previews.forEach(batch::expiredUpTo);
      drafts.forEach(draft -> batch.draftExpired(draft.userId(), draft.convId(), draft.cutoff()));
    }
    previews.clear();
    drafts.clear();
    return new Erased(erasedKeys, messages, deletedDrafts, notifications);
  }

  // One shard's rows, in the caller's transaction; what Redis must forget is noted.
  private Erased blank(Handle handle, long cutoff, boolean home) {
    int messages = 0;
    for (String table : List.of("messages", "archived_messages")) {
      List<Map<String, Object>> blanked = handle.createQuery("with blanked as (update " + table
              + " set content = :erased, attachment = null where create_time < :cutoff"
              + " and type in ('text', 'image', 'file', 'edit', 'reaction') and not recalled and content <> :erased"
              + " returning conv_id, seq) select conv_id, max(seq) as seq, count(*) as n from blanked group by conv_id")
          .bind("erased", ContentOpener.ERASED).bind("cutoff", cutoff).mapToMap().list();
      for (Map<String, Object> conversation : blanked) {
        previews.merge((String) conversation.get("conv_id"), ((Number) conversation.get("seq")).longValue(), Math::max);
        messages += ((Number) conversation.get("n")).intValue();
      }
    }
    List<Draft> deleted = handle.createQuery("delete from drafts where updated_at < :cutoff returning user_id, conv_id")
        .bind("cutoff", cutoff).map((rs, ctx) -> new Draft(rs.getLong(1), rs.getString(2), cutoff)).list();
    drafts.addAll(deleted);
    int notifications = 0;
    if (home) {
      notifications += handle.createUpdate("delete from notifier_outbox where created_at < :cutoff")
          .bind("cutoff", cutoff).execute();
      notifications += handle.createUpdate("delete from notifier_dead_letters where failed_at < :cutoff")
          .bind("cutoff", cutoff).execute();
    }
    return new Erased(0, messages, deleted.size(), notifications);
  }
}
