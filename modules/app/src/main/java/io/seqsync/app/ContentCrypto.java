package io.seqsync.app;

import io.seqsync.config.SeqsyncConfig;
import io.seqsync.ingress.commands.CommandSealing;
import io.seqsync.projector.erasure.Retention;
import io.seqsync.store.keys.ContentKeys;
import io.seqsync.store.keys.ContentOpener;
import io.seqsync.store.keys.ContentSealer;
import io.seqsync.store.keys.MasterKeys;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Jdbi;
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
  private static final Duration FIRST_RUN = Duration.ofMinutes(1);

  private final ContentKeys keys;
  private final ContentSealer sealer;
  private final ScheduledExecutorService retention = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "seqsync-retention");
    thread.setDaemon(true);
    return thread;
  });

  ContentCrypto(SeqsyncConfig config, Jdbi jdbi) {
    this.keys = new ContentKeys(jdbi, MasterKeys.load(config.erasure(), config.dataDir()));
    this.sealer = config.erasure().encryptContent() ? new ContentSealer(keys) : null;
    if (config.erasure().retentionDays() > 0) {
      Retention job = new Retention(jdbi, keys, config.erasure().retentionDays());
      long interval = config.erasure().retentionInterval().toMillis();
      retention.scheduleWithFixedDelay(() -> runRetention(job), Math.min(FIRST_RUN.toMillis(), interval), interval,
          TimeUnit.MILLISECONDS);
    }
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
      if (erased.keys() + erased.messages() + erased.drafts() > 0) {
        log.info("retention erased {} content keys, {} messages, {} drafts", erased.keys(), erased.messages(),
            erased.drafts());
      }
    } catch (RuntimeException e) {
      log.warn("the retention job failed; it resumes at its next run", e);
    }
  }

  @Override
  public void close() {
    retention.shutdownNow();
    if (sealer != null) {
      sealer.close();
    }
  }
}
