package io.seqsync.app;

import io.seqsync.config.Endpoints;
import io.seqsync.config.RedisEndpoint;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.config.Servers;
import io.seqsync.events.AttachmentRules;
import io.seqsync.ingress.attachments.Uploads;
import io.seqsync.projector.erasure.UserErasure;
import io.seqsync.redis.ConversationIndex;
import io.seqsync.redis.RedisClients;
import io.seqsync.store.Database;
import io.seqsync.store.RevocationQueries;
import io.seqsync.store.keys.ContentKeys;
import io.seqsync.store.keys.MasterKeyRotation;
import io.seqsync.store.keys.MasterKeys;
import io.seqsync.store.shard.Shards;
import java.io.PrintStream;
import java.time.Clock;
import java.util.Optional;
import redis.clients.jedis.UnifiedJedis;

/**
 * {@code seqsync erase --user ID}: erases a user as {@code POST /v1/users/{id}/erase} does;
 * {@code seqsync keys rewrap}: rewraps every content key under the current master key (after
 * {@code crypto.master-key} changed, the old one in {@code crypto.old-master-keys});
 * {@code seqsync keys rotate}: for the generated key file, a new master key and the rewrap. Each
 * starts the configured (or embedded) servers: with embedded ones, run it with the app stopped.
 * docs/operations.md, "Erasure and keys".
 */
final class ErasureCommand {
  static final String USAGE = "usage: erase --user ID | keys rewrap | keys rotate";

  private ErasureCommand() {}

  /** Returns the exit code: 0 done, 1 failed, 2 a usage error. */
  static int run(String command, String[] args, SeqsyncConfig config, PrintStream out, PrintStream err) {
    Optional<Long> user = command.equals("erase") && args.length == 2 && args[0].equals("--user")
        ? parseUser(args[1]) : Optional.empty();
    boolean keys = command.equals("keys") && args.length == 1 && (args[0].equals("rewrap") || args[0].equals("rotate"));
    if (user.isEmpty() && !keys) {
      err.println(USAGE);
      return 2;
    }
    try (Servers servers = Servers.start(config)) {
      Endpoints at = servers.endpoints();
      // Every shard (postgres.shards), else the one database: the keys and erased_users are on the home shard.
      try (Shards shards = Shards.open(config.postgres().shards().urlOfPartition(config.kafka().eventPartitions(),
          at.postgresJdbcUrl()), new Shards.Pools(at.postgresUser(), at.postgresPassword(), 1, 2,
          config.postgres().statementTimeout()))) {
        Database database = shards.home();
        if (keys) {
          return keys(args[0], config, database, out);
        }
        Optional<Uploads> uploads = at.objectStore().map(url -> Uploads.connect(url, config.objectStore(),
            new AttachmentRules(config.sequencer().attachments()), servers::startObjectStore));
        try (UnifiedJedis redis = RedisClients.connect(RedisEndpoint.parse(at.redisUri())
            .trusting(config.redis().truststore()))) {
          new RevocationQueries(database.jdbi()).revoke(user.get(), RevocationQueries.ALL_DEVICES,
              Clock.systemUTC().millis());
          UserErasure.Summary summary = new UserErasure(shards.background(), new ConversationIndex(redis),
              uploads.<UserErasure.Objects>map(on -> on::eraseUser).orElse(UserErasure.NO_OBJECTS)).erase(user.get());
          out.printf("erased user %d: %d content keys, %d messages blanked, %d other rows, %d Redis keys,"
              + " %d attachment objects%n", summary.userId(), summary.keys(), summary.messages(), summary.rows(),
              summary.redisKeys(), summary.objects());
          return 0;
        } finally {
          uploads.ifPresent(Uploads::close);
        }
      }
    } catch (RuntimeException e) {
      err.println(command + " failed: " + e.getMessage());
      return 1;
    }
  }

  private static int keys(String action, SeqsyncConfig config, Database database, PrintStream out) {
    if (action.equals("rotate")) {
      MasterKeyRotation.Rotated rotated = MasterKeyRotation.rotateFile(config.erasure(), config.dataDir(), database.jdbi());
      out.printf("master key %s replaced by %s: %d content keys rewrapped%n", rotated.from(), rotated.to(),
          rotated.rewrapped());
      return 0;
    }
    ContentKeys keys = new ContentKeys(database.jdbi(), MasterKeys.load(config.erasure(), config.dataDir()));
    out.printf("%d content keys rewrapped under master key %s%n", keys.rewrap(), keys.masters().current().id());
    return 0;
  }

  private static Optional<Long> parseUser(String text) {
    try {
      long id = Long.parseLong(text);
      return id > 0 ? Optional.of(id) : Optional.empty();
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
