package io.seqsync.ingress.attachments;

import io.seqsync.config.ObjectStoreSettings;
import io.seqsync.events.AttachmentRules;
import io.seqsync.objects.ObjectStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Attachments on: the object store their bytes go to, and what an attachment may be. The store is
 * made ready ({@code prepare}: an embedded server started, the bucket created) at its first use,
 * not at the app's start, since most runs never store an attachment. Thread-safe.
 */
public final class Uploads implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Uploads.class);

  private final ObjectStore store;
  private final AttachmentRules rules;
  private final Runnable prepare;
  private volatile boolean ready;

  /** {@code prepare}: run once, before the first use of {@code store}, until it succeeds. */
  public Uploads(ObjectStore store, AttachmentRules rules, Runnable prepare) {
    this.store = store;
    this.rules = rules;
    this.prepare = prepare;
  }

  /** The store at {@code url}; {@code startServer} makes it serve (an embedded one starts), then the bucket is made. */
  public static Uploads connect(String url, ObjectStoreSettings settings, AttachmentRules rules, Runnable startServer) {
    ObjectStore store = ObjectStore.connect(url, settings);
    return new Uploads(store, rules, () -> {
      startServer.run();
      store.ensureBucket();
    });
  }

  /** The store, ready: the first caller prepares it, the others wait; a failure answers 503 and the next call tries again. */
  public ObjectStore store() {
    if (!ready) {
      synchronized (this) {
        if (!ready) {
          try {
            prepare.run();
          } catch (RuntimeException e) {
            log.warn("the object store is not ready", e);
            throw AttachmentEndpoints.unavailable();
          }
          ready = true;
        }
      }
    }
    return store;
  }

  /**
   * Erasing a user (docs/design.md, "Erasure"): deletes every object in their upload namespace
   * (sent or only uploaded); returns how many.
   */
  public long eraseUser(long userId) {
    long deleted = store().deleteUnder(AttachmentRules.namespace(userId));
    log.info("erased user {}: {} attachment objects deleted", userId, deleted);
    return deleted;
  }

  /** A recalled message's object goes: a failure is logged, and the object stays until its sender is erased. */
  public void deleteRecalled(String key) {
    try {
      store().delete(key);
    } catch (RuntimeException e) {
      log.warn("the object of a recalled message was not deleted: {}", e.toString());
    }
  }

  /** Where presigned URLs point, known without preparing the store: the web client's page names it. */
  public String origin() {
    return store.origin();
  }

  public AttachmentRules rules() {
    return rules;
  }

  @Override
  public void close() {
    store.close();
  }
}
