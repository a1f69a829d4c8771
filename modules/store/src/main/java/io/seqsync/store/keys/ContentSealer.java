package io.seqsync.store.keys;

import io.seqsync.events.SealedText;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seals texts before they reach Kafka: a fresh key per text, wrapped by the current master key
 * and stored in {@link ContentKeys}. The texts are sealed on the caller's thread; their keys are
 * written by one thread in batches (group commit: every key queued while a batch is written goes
 * into the next), and a sealed text is handed out only once its key is committed, so a log never
 * holds a text whose key was not stored. Thread-safe.
 */
public final class ContentSealer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ContentSealer.class);
  private static final int MAX_BATCH = 512;
  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  /** Who and what a text belongs to: its writer, conversation, and the send or edited seq it seals (else null). */
  public record Owner(long userId, String convId, String clientMsgId, Long targetSeq) {}

  private record Pending(ContentKeys.NewKey key, CompletableFuture<Void> stored) {}

  private final ContentKeys keys;
  private final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
  private final Thread writer;
  private volatile boolean closed;

  public ContentSealer(ContentKeys keys) {
    this.keys = keys;
    this.writer = new Thread(this::write, "seqsync-content-keys");
    writer.setDaemon(true);
    writer.start();
  }

  /**
   * {@code text} sealed under a new key of {@code owner}; completes once the key is stored, or with a
   * {@link KeyStoreUnavailableException} when it could not be.
   */
  public CompletableFuture<String> seal(Owner owner, String text) {
    return sealAll(owner, List.of(text)).thenApply(sealed -> sealed.get(0));
  }

  /**
   * {@code texts} sealed under one new key of {@code owner} (a send's content and its attachment's
   * name and key: erasing the key erases them all), in order; completes once the key is stored.
   */
  public CompletableFuture<List<String>> sealAll(Owner owner, List<String> texts) {
    String keyId = BASE64URL.encodeToString(Aead.randomBytes(16));
    byte[] contentKey = Aead.randomBytes(Aead.KEY_BYTES);
    SecretKeySpec key = new SecretKeySpec(contentKey, "AES");
    List<String> sealed = texts.stream().map(text -> SealedText.of(keyId, BASE64URL.encodeToString(
        Aead.seal(key, text.getBytes(StandardCharsets.UTF_8), keyId.getBytes(StandardCharsets.US_ASCII))))).toList();
    return store(owner, keyId, contentKey).thenApply(stored -> sealed);
  }

  /**
   * A reaction's emoji sealed under the key of {@code owner}'s reactions to one message (its
   * targetSeq): the key id is derived from the owner, conversation and seq, and the nonce from the
   * emoji, so the same emoji always seals to the same text: the sequencer tells one reaction from
   * another by their sealed texts, without opening them. The key is labelled like an edit's (owner,
   * conversation, target seq), so erasing the user or recalling the message deletes it.
   */
  public CompletableFuture<String> sealReaction(Owner owner, String emoji) {
    String keyId = reactionKeyId(owner);
    byte[] associated = keyId.getBytes(StandardCharsets.US_ASCII);
    // The first reaction stores the key; later ones (and a concurrent first) read the stored one.
    return store(owner, keyId, Aead.randomBytes(Aead.KEY_BYTES)).thenApply(stored -> {
      javax.crypto.SecretKey key = keys.find(List.of(keyId)).get(keyId);
      if (key == null) {
        throw new IllegalStateException("reaction key " + keyId + " was erased while sealing");
      }
      return SealedText.of(keyId, BASE64URL.encodeToString(
          Aead.sealDeterministic(key, emoji.getBytes(StandardCharsets.UTF_8), associated)));
    });
  }

  static String reactionKeyId(Owner owner) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(("seqsync reaction key\u0000" + owner.userId()
          + "\u0000" + owner.convId() + "\u0000" + owner.targetSeq()).getBytes(StandardCharsets.UTF_8));
      return BASE64URL.encodeToString(java.util.Arrays.copyOf(digest, 16));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  // Queues the key for the writer thread; completes once it is stored.
  private CompletableFuture<Void> store(Owner owner, String keyId, byte[] contentKey) {
    MasterKey master = keys.masters().current();
    Pending pending = new Pending(new ContentKeys.NewKey(keyId, owner.userId(), owner.convId(), owner.clientMsgId(),
        owner.targetSeq(), master.id(), master.wrap(contentKey, keyId)), new CompletableFuture<>());
    if (closed) {
      return CompletableFuture.failedFuture(new KeyStoreUnavailableException("the key store writer is closed", null));
    }
    queue.add(pending);
    return pending.stored();
  }

  private void write() {
    List<Pending> batch = new ArrayList<>();
    while (!closed || !queue.isEmpty()) {
      try {
        Pending first = queue.poll(200, TimeUnit.MILLISECONDS);
        if (first == null) {
          continue;
        }
        batch.add(first);
        queue.drainTo(batch, MAX_BATCH - 1);
        keys.insert(batch.stream().map(Pending::key).toList());
        batch.forEach(pending -> pending.stored().complete(null));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        log.warn("storing {} content keys failed: their sends fail: {}", batch.size(), e.toString());
        KeyStoreUnavailableException failed = new KeyStoreUnavailableException("storing content keys failed", e);
        batch.forEach(pending -> pending.stored().completeExceptionally(failed));
      }
      batch.clear();
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      writer.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
