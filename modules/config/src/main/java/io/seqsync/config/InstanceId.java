package io.seqsync.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The name an instance gives itself in its consumer groups ({@code group.instance.id}, static
 * membership): the configured {@code instance-id}, else one made up once and kept in
 * {@code <data-dir>/instance-id}. Stable across restarts, so a killed instance that comes back
 * takes its partitions back without a rebalance; distinct between instances, since each has a data
 * directory of its own (the sequencer's state lives there). A copied data directory copies the name:
 * two instances running with the same one fence each other out of the groups.
 */
public final class InstanceId {
  static final String FILE = "instance-id";

  private InstanceId() {}

  /** {@code config} with its instance id set: the configured one, else the data directory's (made if missing). */
  public static SeqsyncConfig applied(SeqsyncConfig config) {
    return config.withInstanceId(config.instanceId().orElseGet(() -> stored(config.dataDir())));
  }

  /** The id kept in {@code dataDir}, written there first if there is none. */
  public static String stored(Path dataDir) {
    Path file = dataDir.resolve(FILE);
    try {
      if (Files.isRegularFile(file)) {
        String id = Files.readString(file, StandardCharsets.UTF_8).trim();
        if (!id.isEmpty()) {
          return id;
        }
      }
      byte[] random = new byte[6];
      new SecureRandom().nextBytes(random);
      String id = "seqsync-" + HexFormat.of().formatHex(random);
      Files.createDirectories(dataDir);
      // Written aside and moved: a crash mid-write leaves no half id behind.
      Path partial = dataDir.resolve(FILE + ".partial");
      Files.writeString(partial, id + "\n", StandardCharsets.UTF_8);
      Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return id;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or write the instance id in " + file, e);
    }
  }
}
