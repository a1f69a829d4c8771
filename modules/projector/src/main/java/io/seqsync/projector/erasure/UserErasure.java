package io.seqsync.projector.erasure;

import io.seqsync.redis.ConversationIndex;
import io.seqsync.store.keys.ContentKeys;
import io.seqsync.store.keys.ContentOpener;
import io.seqsync.store.shard.ShardMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Erasing a user on request (docs/design.md, "Erasure"): their content keys are deleted (every
 * sealed copy of what they wrote, in every topic, reads as erased from then on), the user is
 * recorded in {@code erased_users}, and the projections are purged: their messages (hot and
 * archived) keep their seqs with the erased placeholder, their drafts, reactions, mentions,
 * memberships, cursors, read positions, list settings, pushers and pending notifications go (their
 * reactions leave the counts); Redis forgets the keys that held them; their attachment objects are
 * deleted. With shards, the home shard's transaction records the user,
 * deletes the keys and purges there and the notifier's rows; then every other shard is purged in a
 * transaction of its own; then Redis, then the object store. Idempotent: a run that failed part way is run again. A replay
 * calls {@link #purge} again for every erased user, so a rebuilt projection agrees. Thread-safe.
 */
public final class UserErasure {
  private static final Logger log = LoggerFactory.getLogger(UserErasure.class);
  /** The message types whose content a user wrote (a notice of an edit or reaction carries it too). */
  private static final String WRITTEN = "('text', 'image', 'file', 'edit', 'reaction')";

  /** What an erasure did: keys deleted, messages blanked, other rows deleted, Redis keys forgotten, objects deleted. */
  public record Summary(long userId, int keys, int messages, int rows, long redisKeys, long objects) {}

  /** Deletes a user's attachment objects from the object store; returns how many. */
  public interface Objects {
    long erase(long userId);
  }

  /** No object store (attachments off). */
  public static final Objects NO_OBJECTS = userId -> 0;

  private final ShardMap shards;
  private final ConversationIndex index;
  private final Objects objects;

  public UserErasure(Jdbi jdbi, ConversationIndex index, Objects objects) {
    this(ShardMap.single(jdbi), index, objects);
  }

  /** Erasing on every shard of {@code shards}: the key store, erased_users and the notifier's rows on the home shard. */
  public UserErasure(ShardMap shards, ConversationIndex index, Objects objects) {
    this.shards = shards;
    this.index = index;
    this.objects = objects;
  }

  public Summary erase(long userId) {
    // The other shards' conversations of the user first: the notifier's rows (home shard) of all of them go.
    List<Jdbi> others = shards.all().subList(1, shards.size());
    Set<String> conversations = new LinkedHashSet<>();
    shards.fanOut(others, shard -> shard.withHandle(handle -> conversations(handle, userId)))
        .forEach(conversations::addAll);
    record Purged(int keys, Counts counts) {}
    Purged home = shards.home().inTransaction(handle -> {
      handle.createUpdate("insert into erased_users (user_id) values (:user) on conflict do nothing")
          .bind("user", userId).execute();
      conversations.addAll(conversations(handle, userId));
      int keys = ContentKeys.eraseOwner(handle, userId);
      Counts counts = purge(handle, userId);
      return new Purged(keys, new Counts(counts.messages(), counts.rows() + purgeNotifications(handle, conversations)));
    });
    int messages = home.counts().messages();
    int rows = home.counts().rows();
    for (Jdbi shard : others) {
      Counts counts = shard.inTransaction(handle -> purge(handle, userId));
      messages += counts.messages();
      rows += counts.rows();
    }
    long redisKeys = index.forgetErased(userId, conversations);
    // Last: the objects' keys are already unreadable in the log; a failure here fails the request, and a repeat finishes it.
    Summary summary = new Summary(userId, home.keys(), messages, rows, redisKeys, objects.erase(userId));
    log.info("erased user {}: {} content keys, {} messages blanked, {} other rows deleted, {} Redis keys forgotten,"
        + " {} objects deleted", userId, summary.keys(), summary.messages(), summary.rows(), summary.redisKeys(),
        summary.objects());
    return summary;
  }

  private static List<String> conversations(Handle handle, long userId) {
    return handle.createQuery("select conv_id from conversation_members where user_id = :user"
            + " union select distinct conv_id from all_messages where sender_id = :user")
        .bind("user", userId).mapTo(String.class).list();
  }

  /** Messages blanked and other rows deleted. */
  public record Counts(int messages, int rows) {}

  /** Purges the projections of {@code userId}'s rows, in the caller's transaction. */
  public static Counts purge(Handle handle, long userId) {
    int messages = 0;
    for (String table : List.of("messages", "archived_messages")) {
      messages += handle.createUpdate("update " + table + " set content = :erased, attachment = null"
              + " where sender_id = :user and type in " + WRITTEN + " and not recalled and content <> :erased")
          .bind("erased", ContentOpener.ERASED).bind("user", userId).execute();
    }
    // Their reactions leave the counts of the messages they reacted to.
    for (String table : List.of("messages", "archived_messages")) {
      handle.createUpdate("update " + table + " m set reactions = greatest(0, m.reactions - r.n) from (select conv_id,"
              + " seq, count(*) n from message_reactions where user_id = :user group by conv_id, seq) r"
              + " where m.conv_id = r.conv_id and m.seq = r.seq")
          .bind("user", userId).execute();
    }
    int rows = 0;
    for (String table : List.of("drafts", "message_reactions", "mentions", "conversation_members", "device_cursors",
        "read_positions", "conversation_settings", "pushers", "presence_settings")) {
      rows += handle.createUpdate("delete from " + table + " where user_id = :user").bind("user", userId).execute();
    }
    return new Counts(messages, rows);
  }

  // A pending (or dead-lettered) notification's payload may preview their text: those of their
  // conversations go, the other members' included (their streams are named by the conversation).
  private static int purgeNotifications(Handle handle, Set<String> conversations) {
    int rows = 0;
    for (String table : List.of("notifier_outbox", "notifier_dead_letters")) {
      rows += handle.createUpdate("delete from " + table + " where exists (select 1 from unnest(:convs) c"
              + " where stream = c or starts_with(stream, c))")
          .bindArray("convs", String.class, conversations).execute();
    }
    return rows;
  }

  /** Purges every erased user's rows again (after a replay rebuilt them from the log); returns how many users. */
  public static int purgeErased(Jdbi jdbi) {
    return purgeErased(jdbi, jdbi);
  }

  /**
   * Purges from {@code target} the rows of every user erased in {@code home} (whose erased_users is
   * the record): a shard that a partition move filled from the log holds them again.
   */
  public static int purgeErased(Jdbi home, Jdbi target) {
    List<Long> users = home.withHandle(handle -> handle.createQuery("select user_id from erased_users")
        .mapTo(Long.class).list());
    target.useTransaction(handle -> users.forEach(user -> purge(handle, user)));
    return users.size();
  }
}
