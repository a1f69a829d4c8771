package io.seqsync.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A new directory under the system's temporary directory, deleted with everything below it on
 * close: for servers a test starts outside JUnit's {@code @TempDir} (in an extension, say).
 * {@link #deleteTree} is the project's one recursive delete (tests, benchmarks).
 */
public final class TemporaryDirectory implements AutoCloseable {
  private final Path path;

  private TemporaryDirectory(Path path) {
    this.path = path;
  }

  /** Creates a directory whose name starts with {@code prefix}. */
  public static TemporaryDirectory create(String prefix) {
    try {
      return new TemporaryDirectory(Files.createTempDirectory(prefix));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary directory " + prefix + "*", e);
    }
  }

  public Path path() {
    return path;
  }

  /** Deletes the directory and everything in it; close the servers that write there first. */
  @Override
  public void close() {
    deleteTree(path);
  }

  /**
   * Deletes {@code root} and everything below it, deepest first. Every file is tried; the first
   * that could not be deleted is then reported.
   */
  public static void deleteTree(Path root) {
    List<Path> deepestFirst;
    try (Stream<Path> paths = Files.walk(root)) {
      deepestFirst = paths.sorted(Comparator.reverseOrder()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + root, e);
    }
    IOException first = null;
    for (Path file : deepestFirst) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw new UncheckedIOException("cannot delete all of " + root, first);
    }
  }
}
