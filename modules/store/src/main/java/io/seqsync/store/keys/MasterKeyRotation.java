package io.seqsync.store.keys;

import io.seqsync.config.ConfigException;
import io.seqsync.config.Erasure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.jdbi.v3.core.Jdbi;

/**
 * Rotating the generated master key file (crypto.master-key unset): the current file is kept as
 * {@code crypto/old-<id>.key}, a new {@code crypto/master.key} is generated, every content key is
 * rewrapped under it in PostgreSQL (the log is never rewritten), then the old file is deleted. A
 * rotation that stopped halfway is finished by running it again: the old file still unwraps what
 * was not rewrapped yet. With the app stopped: a running app wraps new keys with the key it loaded.
 */
public final class MasterKeyRotation {
  /** The old master key's id, the new one's, and how many content keys moved. */
  public record Rotated(String from, String to, int rewrapped) {}

  private MasterKeyRotation() {}

  public static Rotated rotateFile(Erasure settings, Path dataDir, Jdbi jdbi) {
    if (settings.masterKey().isPresent()) {
      throw new ConfigException("crypto.master-key is configured: set the new key there, the old one in"
          + " crypto.old-master-keys, and run `keys rewrap`");
    }
    try {
      Path current = MasterKeys.currentFile(dataDir);
      MasterKey old = MasterKeys.load(settings, dataDir).current();
      Path kept = current.resolveSibling("old-" + old.id() + ".key");
      Files.move(current, kept, StandardCopyOption.REPLACE_EXISTING);
      MasterKeys.write(current, MasterKey.generate());
      ContentKeys keys = new ContentKeys(jdbi, MasterKeys.load(settings, dataDir));
      int rewrapped = keys.rewrap();
      Files.delete(kept);
      return new Rotated(old.id(), keys.masters().current().id(), rewrapped);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
