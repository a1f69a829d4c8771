package io.seqsync.store.keys;

import io.seqsync.config.ConfigException;
import io.seqsync.config.Erasure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The master keys: the current one wraps new content keys; older ones (during a rotation) still
 * unwrap the rows they wrapped. Configured ({@code crypto.master-key}, {@code crypto.old-master-keys}),
 * else the key file {@code crypto/master.key} under the data directory, generated on first use, and
 * the files {@code crypto/old-*.key} a rotation left. Immutable.
 */
public record MasterKeys(MasterKey current, Map<String, MasterKey> byId) {
  static final String KEY_FILE = "master.key";

  public MasterKeys {
    byId = Map.copyOf(byId);
  }

  public static MasterKeys of(MasterKey current, List<MasterKey> old) {
    Map<String, MasterKey> byId = new LinkedHashMap<>();
    old.forEach(key -> byId.put(key.id(), key));
    byId.put(current.id(), current);
    return new MasterKeys(current, byId);
  }

  /** The configured keys, else the data directory's key files (the current one generated if absent). */
  public static MasterKeys load(Erasure settings, Path dataDir) {
    try {
      List<MasterKey> old = settings.oldMasterKeys().stream().map(MasterKeys::parse).toList();
      if (settings.masterKey().isPresent()) {
        return of(parse(settings.masterKey().get()), old);
      }
      Path dir = directory(dataDir);
      List<MasterKey> oldFiles;
      try (Stream<Path> files = Files.list(dir)) {
        oldFiles = files.filter(file -> file.getFileName().toString().startsWith("old-")).sorted()
            .map(MasterKeys::read).toList();
      }
      return of(read(currentFile(dataDir)),
          Stream.concat(old.stream(), oldFiles.stream()).toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The key file under {@code dataDir}, generated (readable by its owner only) when there is none. */
  static Path currentFile(Path dataDir) throws IOException {
    Path file = directory(dataDir).resolve(KEY_FILE);
    if (!Files.exists(file)) {
      write(file, MasterKey.generate());
    }
    return file;
  }

  static Path directory(Path dataDir) throws IOException {
    return Files.createDirectories(dataDir.resolve("crypto"));
  }

  static void write(Path file, String base64) throws IOException {
    Path written = Files.writeString(file.resolveSibling(file.getFileName() + ".tmp"), base64 + "\n",
        StandardCharsets.US_ASCII);
    try {
      Files.setPosixFilePermissions(written, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException ignored) {
      // not a POSIX file system: its own access rules apply
    }
    Files.move(written, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  private static MasterKey read(Path file) {
    try {
      return MasterKey.parse(Files.readString(file, StandardCharsets.US_ASCII));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(file + ": " + e.getMessage());
    }
  }

  private static MasterKey parse(String base64) {
    try {
      return MasterKey.parse(base64);
    } catch (IllegalArgumentException e) {
      throw new ConfigException("crypto.master-key / crypto.old-master-keys: " + e.getMessage());
    }
  }

  Optional<MasterKey> find(String id) {
    return Optional.ofNullable(byId.get(id));
  }
}
