package io.seqsync.app;

import io.seqsync.config.SeqsyncConfig;
import io.seqsync.ingress.commands.CommandSealing;
import io.seqsync.projector.erasure.Retention;
import io.seqsync.redis.ConversationIndex;
import io.seqsync.store.keys.ContentKeys;
import io.seqsync.store.keys.ContentOpener;
import io.seqsync.store.keys.ContentSealer;
import io.seqsync.store.keys.MasterKeys;
import io.seqsync.store.shard.ShardMap;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Crypto-shredding's parts in one app (docs/design.md, "Erasure"): the key store under the master
 * keys, the ingress's sealing (unless crypto.encrypt-content is off), the projector's opener, and
 * the retention job (retention.days above 0), which runs a minute after start (or sooner with a
 * shorter interval) and every retention.interval after. Closing stops the job and the key writer.
 */
final class ContentCrypto implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ContentCrypto.class);

  private final ContentKeys keys;
  private final ContentSealer sealer;
  private final PeriodicJob retention;

  /** The key store on the home shard of {@code shards}; retention blanks every shard and forgets in {@code index}. */
  ContentCrypto(SeqsyncConfig config, ShardMap shards, ConversationIndex index) {
    this.keys = new ContentKeys(shards.home(), MasterKeys.load(config.erasure(), config.dataDir()));
    this.sealer = config.erasure().encryptContent() ? new ContentSealer(keys) : null;
    Retention job = new Retention(shards, keys, config.erasure().retentionDays(), index);
    this.retention = config.erasure().retentionDays() > 0
        ? new PeriodicJob("seqsync-retention", config.erasure().retentionInterval(), () -> runRetention(job)) : null;
  }

  CommandSealing sealing() {
    return sealer == null ? CommandSealing.NONE : new CommandSealing(sealer);
  }

  ContentOpener opener() {
    return new ContentOpener(keys);
  }

  private static void runRetention(Retention job) {
    try {
      Retention.Erased erased = job.run(Instant.now());
      if (erased.keys() + erased.messages() + erased.drafts() + erased.notifications() > 0) {
        log.info("retention erased {} content keys, {} messages, {} drafts, {} notifications", erased.keys(),
            erased.messages(), erased.drafts(), erased.notifications());
      }
    } catch (RuntimeException e) {
      log.warn("the retention job failed; it resumes at its next run", e);
    }
  }

  @Override
  public void close() {
    if (retention != null) {
      retention.close();
    }
    if (sealer != null) {
      sealer.close();
    }
  }
}
