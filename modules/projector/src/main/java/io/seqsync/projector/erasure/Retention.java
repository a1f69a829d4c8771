package io.seqsync.projector.erasure;

import io.seqsync.store.keys.ContentKeys;
import io.seqsync.store.keys.ContentOpener;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jdbi.v3.core.Jdbi;

/**
 * Retention (docs/design.md, "Erasure"): content sealed more than {@code days} days ago is erased:
 * its keys are deleted, and the rows that hold its plaintext (messages hot and archived, drafts)
 * read as erased, their seqs kept. Idempotent; a run erases what aged since the last. Thread-safe.
 */
public final class Retention {
  /** What one run erased: keys, messages blanked, drafts deleted. */
  public record Erased(int keys, int messages, int drafts) {}

  private final Jdbi jdbi;
  private final ContentKeys keys;
  private final Duration kept;

  public Retention(Jdbi jdbi, ContentKeys keys, int days) {
    this.jdbi = jdbi;
    this.keys = keys;
    this.kept = Duration.ofDays(days);
  }

  public Erased run(Instant now) {
    Instant cutoff = now.minus(kept);
    int erasedKeys = keys.eraseOlderThan(cutoff);
    return jdbi.inTransaction(handle -> {
      int messages = 0;
      for (String table : List.of("messages", "archived_messages")) {
        messages += handle.createUpdate("update " + table + " set content = :erased, attachment = null"
                + " where create_time < :cutoff and type in ('text', 'image', 'file', 'edit', 'reaction')"
                + " and not recalled and content <> :erased")
            .bind("erased", ContentOpener.ERASED).bind("cutoff", cutoff.toEpochMilli()).execute();
      }
      int drafts = handle.createUpdate("delete from drafts where updated_at < :cutoff")
          .bind("cutoff", cutoff.toEpochMilli()).execute();
      return new Erased(erasedKeys, messages, drafts);
    });
  }
}
