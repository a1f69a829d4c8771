package io.seqsync.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on a data directory, held while its embedded servers run. A second process on
 * the same directory (the app started twice, or a replay while the app runs) must not get as far
 * as starting a broker there: Kafka takes its own lock on the log directory only after its
 * controller has opened the metadata log, and that second opening corrupted the running broker's
 * log, which then halted its process (seen here). Thread-safe.
 */
final class DataDirLock implements AutoCloseable {
  static final String FILE_NAME = ".seqsync.lock";

  private final FileChannel channel;
  private final FileLock lock;

  private DataDirLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /** Locks {@code dir} (created if missing), or fails at once when another process or stack holds it. */
  static DataDirLock acquire(Path dir) {
    FileChannel channel = null;
    try {
      Files.createDirectories(dir);
      channel = FileChannel.open(dir.resolve(FILE_NAME), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = tryLock(channel);
      if (lock == null) {
        channel.close();
        throw new IllegalStateException("data directory " + dir.toAbsolutePath() + " is in use by another seqsync:"
            + " stop it first (or point this one at another data-dir)");
      }
      return new DataDirLock(channel, lock);
    } catch (IOException e) {
      closeQuietly(channel);
      throw new UncheckedIOException("cannot lock data directory " + dir.toAbsolutePath(), e);
    }
  }

  // A lock this JVM holds already (another stack on the same directory) counts as taken, like another process's.
  private static FileLock tryLock(FileChannel channel) throws IOException {
    try {
      return channel.tryLock();
    } catch (OverlappingFileLockException e) {
      return null;
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
    } catch (IOException e) {
      // Closing the channel releases it too.
    } finally {
      closeQuietly(channel);
    }
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel == null) {
      return;
    }
    try {
      channel.close();
    } catch (IOException e) {
      // Nothing left to release.
    }
  }
}
