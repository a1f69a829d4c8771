package io.seqsync.store.keys;

import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The key store ({@code content_keys}): one wrapped AES-256 key per sealed text, and what names it
 * for erasure: its owner (the writer), its conversation, the send it seals (clientMsgId) or the
 * message an edit targets, its age. Deleting rows erases: a deleted key is gone from PostgreSQL at
 * the transaction's commit, while a log keeps its sealed copies forever. Thread-safe.
 */
public final class ContentKeys {
  private static final Logger log = LoggerFactory.getLogger(ContentKeys.class);

  /** A key to store: {@code clientMsgId} for a send's content, {@code targetSeq} for an edit's (else null). */
  public record NewKey(String keyId, long ownerId, String convId, String clientMsgId, Long targetSeq, String masterKeyId,
      byte[] wrapped) {}

  private final Jdbi jdbi;
  private final MasterKeys masters;

  public ContentKeys(Jdbi jdbi, MasterKeys masters) {
    this.jdbi = jdbi;
    this.masters = masters;
  }

  public MasterKeys masters() {
    return masters;
  }

  static void insert(Handle handle, List<NewKey> keys) {
    PreparedBatch batch = handle.prepareBatch("insert into content_keys (key_id, owner_id, conv_id, client_msg_id,"
        + " target_seq, master_key_id, wrapped) values (:id, :owner, :conv, :send, :target, :master, :wrapped)"
        // A reaction key's id is derived (ContentSealer.sealReaction): the first one stored is the one kept.
        + " on conflict (key_id) do nothing");
    for (NewKey key : keys) {
      batch.bind("id", key.keyId()).bind("owner", key.ownerId()).bind("conv", key.convId())
          .bind("send", key.clientMsgId()).bind("target", key.targetSeq()).bind("master", key.masterKeyId())
          .bind("wrapped", key.wrapped()).add();
    }
    batch.execute();
  }

  void insert(List<NewKey> keys) {
    jdbi.useHandle(handle -> insert(handle, keys));
  }

  /** The content keys of {@code keyIds} that exist (an erased one is absent), unwrapped. */
  public Map<String, SecretKey> find(Collection<String> keyIds) {
    Map<String, SecretKey> found = new HashMap<>();
    if (keyIds.isEmpty()) {
      return found;
    }
    jdbi.useHandle(handle -> handle.createQuery("select key_id, master_key_id, wrapped from content_keys"
            + " where key_id = any(:ids)")
        .bindArray("ids", String.class, keyIds)
        .map((rs, ctx) -> new Stored(rs.getString(1), rs.getString(2), rs.getBytes(3)))
        .forEach(stored -> unwrap(stored).ifPresent(key -> found.put(stored.keyId(), key))));
    return found;
  }

  private record Stored(String keyId, String masterKeyId, byte[] wrapped) {}

  private java.util.Optional<SecretKey> unwrap(Stored stored) {
    java.util.Optional<MasterKey> master = masters.find(stored.masterKeyId());
    if (master.isEmpty()) {
      log.error("content key {} is wrapped by master key {}, which is not configured: it reads as erased",
          stored.keyId(), stored.masterKeyId());
      return java.util.Optional.empty();
    }
    try {
      return java.util.Optional.of(new SecretKeySpec(master.get().unwrap(stored.wrapped(), stored.keyId()), "AES"));
    } catch (GeneralSecurityException e) {
      log.error("content key {} does not unwrap with master key {}: it reads as erased", stored.keyId(),
          stored.masterKeyId());
      return java.util.Optional.empty();
    }
  }

  /** Erases everything {@code userId} wrote: deletes their keys. */
  public static int eraseOwner(Handle handle, long userId) {
    return handle.createUpdate("delete from content_keys where owner_id = :user").bind("user", userId).execute();
  }

  /**
   * Erases the message at {@code seq} (a recall): the keys of its send (retries included) and of its
   * edits. Runs in the projector's transaction that stores the recall, before or after its row.
   */
  public static int eraseMessage(Handle handle, String convId, long seq) {
    return eraseMessage(handle, handle, convId, seq);
  }

  /**
   * The same, with the message read through {@code messages} (its shard's, inside the transaction
   * that stores the recall) and the keys erased through {@code keys} (the key store's).
   */
  public static int eraseMessage(Handle messages, Handle keys, String convId, long seq) {
    record Send(String clientMsgId, long ownerId) {}
    int sends = messages.createQuery("select client_msg_id, sender_id from all_messages where conv_id = :conv and seq = :seq")
        .bind("conv", convId).bind("seq", seq)
        .map((rs, ctx) -> new Send(rs.getString(1), rs.getLong(2))).findOne()
        .map(send -> keys.createUpdate("delete from content_keys where conv_id = :conv"
                + " and client_msg_id = :clientMsgId and owner_id = :owner")
            .bind("conv", convId).bind("clientMsgId", send.clientMsgId()).bind("owner", send.ownerId()).execute())
        .orElse(0);
    return sends + keys.createUpdate("delete from content_keys where conv_id = :conv and target_seq = :seq")
        .bind("conv", convId).bind("seq", seq).execute();
  }

  /** Retention: erases every text sealed before {@code cutoff}. */
  public int eraseOlderThan(Instant cutoff) {
    return jdbi.withHandle(handle -> handle.createUpdate("delete from content_keys where created_at < :cutoff")
        .bind("cutoff", cutoff).execute());
  }

  /** Rewraps every key not wrapped by the current master key with it, in batches; returns how many. */
  public int rewrap() {
    int total = 0;
    while (true) {
      int done = jdbi.inTransaction(handle -> {
        List<Stored> batch = handle.createQuery("select key_id, master_key_id, wrapped from content_keys"
                + " where master_key_id <> :current limit 1000 for update skip locked")
            .bind("current", masters.current().id())
            .map((rs, ctx) -> new Stored(rs.getString(1), rs.getString(2), rs.getBytes(3))).list();
        PreparedBatch update = handle.prepareBatch("update content_keys set master_key_id = :master,"
            + " wrapped = :wrapped where key_id = :id");
        int rewrapped = 0;
        for (Stored stored : batch) {
          java.util.Optional<SecretKey> key = unwrap(stored);
          if (key.isPresent()) {
            update.bind("master", masters.current().id())
                .bind("wrapped", masters.current().wrap(key.get().getEncoded(), stored.keyId()))
                .bind("id", stored.keyId()).add();
            rewrapped++;
          }
        }
        if (rewrapped > 0) {
          update.execute();
        }
        if (rewrapped < batch.size()) {
          throw new IllegalStateException((batch.size() - rewrapped) + " keys are wrapped by a master key that is"
              + " not configured (crypto.old-master-keys): nothing rewrapped in this batch");
        }
        return rewrapped;
      });
      total += done;
      if (done == 0) {
        return total;
      }
    }
  }
}
