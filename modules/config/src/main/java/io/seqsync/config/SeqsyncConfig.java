package io.seqsync.config;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Every setting of seqsync, typed, in one place. Built by {@link ConfigLoader} from environment
 * variables and an optional properties file; an absent server address means "start the embedded
 * one" (see the localstack module).
 */
public record SeqsyncConfig(
    Path dataDir, Optional<String> instanceId, Kafka kafka, Postgres postgres, Redis redis, Sequencer sequencer, Http http, Auth auth,
    Projector projector, Fetch fetch, Delivery delivery, Archive archive, Health health, Limits limits,
    Groups groups, Presence presence, Integrations integrations, ObjectStoreSettings objectStore, Notify notifications) {

  public SeqsyncConfig {
    // Each lane holds at most its concurrency in connections: together they leave the projector,
    // sends and the rest at least one, and paging can never take first screens' connections.
    require(fetch.firstScreen().concurrency() + fetch.paging().concurrency() < postgres.poolSize(),
        "fetch.first-screen.concurrency + fetch.paging.concurrency must be below postgres.pool-size ("
            + postgres.poolSize() + ")");
  }

  /**
   * This configuration with {@code id} as the instance's name in its consumer groups, unless one is
   * configured, and as the projector's too, unless that one is (see {@link InstanceId}).
   */
  public SeqsyncConfig withInstanceId(String id) {
    String instance = instanceId.orElse(id);
    Projector named = new Projector(projector.groupId(), Optional.of(projector.instanceId().orElse(instance)),
        projector.maxPollRecords(), projector.sessionTimeout(), projector.retryBackoff());
    return new SeqsyncConfig(dataDir, Optional.of(instance), kafka, postgres, redis, sequencer, http, auth, named,
        fetch, delivery, archive, health, limits, groups, presence, integrations, objectStore, notifications);
  }

  /**
   * Kafka: {@code bootstrapServers} empty means an in-process KRaft broker under {@code dataDir/kafka},
   * listening on {@code embeddedPort} (0: any free port). {@code replicationFactor} and
   * {@code minInsyncReplicas} apply to every topic seqsync creates, its own and Kafka Streams'
   * internal ones (changelogs, repartition): a write with {@code acks=all} (commands, the
   * sequencer's transactions) is acknowledged once that many replicas hold it, and refused while
   * fewer are in sync. {@code security}: TLS and authentication to a configured Kafka (an embedded
   * broker is always plain).
   */
  public record Kafka(
      Optional<String> bootstrapServers,
      String topicPrefix,
      int commandPartitions,
      int eventPartitions,
      short replicationFactor,
      short minInsyncReplicas,
      int embeddedPort,
      KafkaSecurity security) {
    public Kafka {
      require(commandPartitions > 0 && commandPartitions <= 1024, "kafka.command-partitions must be 1..1024");
      require(eventPartitions == commandPartitions,
          "kafka.event-partitions must equal kafka.command-partitions: events keep their conversation's partition");
      require(replicationFactor > 0, "kafka.replication-factor must be positive");
      require(minInsyncReplicas > 0 && minInsyncReplicas <= replicationFactor,
          "kafka.min-insync-replicas must be 1..kafka.replication-factor");
    }

    /**
     * The default {@code min.insync.replicas} for a replication factor: a majority of the replicas
     * (1 of 1, 2 of 2, 2 of 3, 3 of 5), so an acknowledged write survives the loss of any minority.
     */
    public static short majorityOf(short replicationFactor) {
      return (short) (replicationFactor / 2 + 1);
    }
  }

  /**
   * PostgreSQL: {@code jdbcUrl} empty means an embedded server under {@code dataDir/postgres} on
   * {@code embeddedPort}. What users drive (fetches, the handshake, the list, activation, the
   * archive, ops reads, membership checks) uses a pool of {@code poolSize} connections whose every
   * statement is cancelled after {@code statementTimeout}; the projectors and background jobs use
   * one of {@code backgroundPoolSize} without a timeout, so a user-facing limit never cuts a write.
   */
  public record Postgres(Optional<String> jdbcUrl, String user, String password, int embeddedPort, int poolSize,
      int backgroundPoolSize, Duration statementTimeout) {
    public Postgres {
      require(poolSize > 0, "postgres.pool-size must be positive");
      require(backgroundPoolSize > 0, "postgres.background-pool-size must be positive");
      require(statementTimeout.toMillis() > 0, "postgres.statement-timeout must be positive");
    }
  }

  /**
   * Redis: {@code uri} empty means an embedded redis-server under {@code dataDir/redis} on
   * {@code embeddedPort}; else one server or a Redis Cluster ({@link RedisEndpoint} has the syntax).
   * {@code truststore}: the CAs a {@code rediss://} server's certificate is checked against, when not the JVM's.
   */
  public record Redis(Optional<String> uri, int embeddedPort, Optional<KeyStoreFile> truststore) {
    public Redis {
      uri.ifPresent(RedisEndpoint::parse); // refused at start, not at the first connection
    }
  }

  /**
   * The Kafka Streams sequencer, and the limits it enforces (the ingress checks the same ones first:
   * content, group size, attachments).
   * {@code transactionalStores}: Streams' transactional state stores (KIP-892), whose RocksDB holds
   * only committed writes, so a task's state survives an unclean stop instead of being wiped and
   * restored from its changelog (docs/design.md, "Restart").
   */
  public record Sequencer(
      String applicationId,
      Duration dedupWindow,
      int streamThreads,
      Duration commitInterval,
      Duration sessionTimeout,
      int maxContentBytes,
      int maxGroupMembers,
      boolean transactionalStores,
      AttachmentLimits attachments,
      Duration editWindow) {
    public Sequencer {
      require(!applicationId.isBlank(), "sequencer.application-id must not be blank");
      require(!dedupWindow.isNegative() && !dedupWindow.isZero(), "sequencer.dedup-window must be positive");
      require(streamThreads > 0, "sequencer.stream-threads must be positive");
      require(maxContentBytes > 0, "sequencer.max-content-bytes must be positive");
      require(maxGroupMembers >= 2, "sequencer.max-group-members must be at least 2");
      require(!editWindow.isNegative(), "sequencer.edit-window must not be negative");
    }
  }

  /**
   * The HTTP ingress. {@code replyBudget}: how long a send waits for its committed seq before
   * answering 202 (API.md). {@code commandLinger}: how long the ingress's producer waits for more
   * commands to send with one (Kafka's {@code linger.ms}). {@code streamCompression}: whether the push
   * stream accepts permessage-deflate when a client offers it.
   */
  public record Http(String host, int port, Duration replyBudget, Duration commandLinger, boolean streamCompression) {
    public Http {
      require(!host.isBlank(), "http.host must not be blank");
      require(port >= 0 && port <= 65535, "http.port must be 0..65535");
      require(!replyBudget.isNegative(), "http.reply-budget must not be negative");
      require(!commandLinger.isNegative() && commandLinger.compareTo(Duration.ofSeconds(1)) <= 0,
          "http.command-linger must be 0..1s");
    }

    /** Whether the ingress listens on a loopback address only. */
    public boolean loopback() {
      return isLoopback(host);
    }
  }

  /**
   * Tokens: HS256 JWTs signed with {@code secret}. Empty secret: the development secret, allowed
   * only when every server is embedded (see the app's start-up check). {@code identityProvider}:
   * RS256 and ES256 tokens verified against its JWKS, besides; empty: none accepted.
   */
  public record Auth(Optional<String> secret, Duration demoTokenTtl, Optional<IdentityProvider> identityProvider) {
    /** No secret configured: tokens are signed with the published development secret. */
    public boolean developmentSecret() {
      return secret.isEmpty();
    }
  }

  /**
   * An identity provider's tokens (RS256, ES256), verified with the keys its {@code jwksUrl}
   * publishes: {@code iss} must be {@code issuer} and {@code aud} hold {@code audience}; the user id
   * is the claim {@code userClaim}, the device id the claim {@code deviceClaim}; {@code exp} and
   * {@code nbf} are allowed {@code clockSkew} (the provider's clock is not ours). An operator's
   * token has the claim {@code opsClaim} (a dotted path reaches into objects) true, equal to
   * {@code opsRole} or a list holding it.
   */
  public record IdentityProvider(URI jwksUrl, String issuer, String audience, String userClaim, String deviceClaim,
      Duration clockSkew, String opsClaim, String opsRole) {
    public IdentityProvider {
      String scheme = jwksUrl.getScheme() == null ? "" : jwksUrl.getScheme().toLowerCase(java.util.Locale.ROOT);
      require(jwksUrl.isAbsolute() && (scheme.equals("https") || scheme.equals("http")) && jwksUrl.getHost() != null,
          "auth.jwks-url must be an http(s) URL, got '" + jwksUrl + "'");
      // Keys fetched over plain http could be swapped on the way, and with them every token accepted.
      require(scheme.equals("https") || isLoopback(jwksUrl.getHost()),
          "auth.jwks-url must be https (plain http only on loopback), got '" + jwksUrl + "'");
      require(!issuer.isBlank(), "auth.issuer is required with auth.jwks-url: tokens of any other issuer are refused");
      require(!audience.isBlank(), "auth.audience is required with auth.jwks-url: tokens for other clients are refused");
      require(!userClaim.isBlank() && !deviceClaim.isBlank(), "auth.user-claim and auth.device-claim must not be blank");
      require(!clockSkew.isNegative() && clockSkew.compareTo(Duration.ofMinutes(10)) <= 0,
          "auth.clock-skew must be 0s..10m");
      require(!opsClaim.isBlank() && !opsRole.isBlank(), "auth.ops-claim and auth.ops-role must not be blank");
    }
  }

  /**
   * The PostgreSQL projector: a consumer group reading the events topic. {@code instanceId} turns on
   * static membership, so a restarted instance gets its partitions back at once rather than after
   * {@code sessionTimeout}; it must differ between instances running at the same time. The app
   * sets it to the instance's id ({@link #withInstanceId}) when it is not configured.
   */
  public record Projector(
      String groupId, Optional<String> instanceId, int maxPollRecords, Duration sessionTimeout, Duration retryBackoff) {
    public Projector {
      require(!groupId.isBlank(), "projector.group-id must not be blank");
      require(maxPollRecords > 0, "projector.max-poll-records must be positive");
      require(!retryBackoff.isNegative(), "projector.retry-backoff must not be negative");
    }
  }

  /**
   * Push notifications (docs/design.md, "Push notifications"): whether they run, one per
   * conversation and device per {@code coalesceWindow} (the latest message of a burst, sent at the
   * window's end; zero: each message at once), with the message's text ({@code preview}) or none;
   * {@code maxAttempts} tries per notification with back-off from {@code firstBackoff} doubling up
   * to {@code maxBackoff}, each given {@code requestTimeout}, then the dead letters; {@code inFlight}
   * requests at once per instance; Web Push's VAPID {@code vapidSubject} (a mailto: or https: URL).
   */
  public record Notify(boolean enabled, Duration coalesceWindow, boolean preview, int maxAttempts,
      Duration firstBackoff, Duration maxBackoff, Duration requestTimeout, int inFlight, String vapidSubject,
      int pushersPerUser) {
    public Notify {
      require(!coalesceWindow.isNegative() && coalesceWindow.compareTo(Duration.ofMinutes(5)) <= 0,
          "notify.coalesce-window must be 0s-5m");
      require(maxAttempts >= 1 && maxAttempts <= 100, "notify.max-attempts must be 1-100");
      require(!firstBackoff.isNegative() && maxBackoff.compareTo(firstBackoff) >= 0,
          "notify.first-backoff must not be negative nor above notify.max-backoff");
      require(requestTimeout.toMillis() > 0, "notify.request-timeout must be positive");
      require(inFlight >= 1 && inFlight <= 10_000, "notify.in-flight must be 1-10000");
      require(vapidSubject.startsWith("mailto:") || vapidSubject.startsWith("https:"),
          "notify.vapid-subject must be a mailto: or https: URL");
      require(pushersPerUser >= 1, "notify.pushers-per-user must be positive");
    }
  }

  /**
   * Delivery acceptance (R17, R24): the consumer group that projects clients' delivery reports into
   * PostgreSQL, and the send-to-render time within which a message counts as delivered on time;
   * a render later than that is filed as a negative case with its cause. {@code figuresCache}: how
   * long the figures of a period, once computed, answer whoever asks (each computation scans the
   * period's messages).
   */
  public record Delivery(String groupId, Duration renderTarget, Duration figuresCache) {
    public Delivery {
      require(!groupId.isBlank(), "delivery.group-id must not be blank");
      require(renderTarget.toMillis() > 0, "delivery.render-target must be positive");
      require(!figuresCache.isNegative(), "delivery.figures-cache must not be negative");
    }
  }

  /**
   * The hot and cold tiers of messages (R22): the hot table keeps {@code hotDays} days (UTC, today
   * included); the archive job runs every {@code interval} (zero: never) and moves older days to the
   * archive; an archive read gives up after {@code readBudget}.
   */
  public record Archive(int hotDays, Duration interval, Duration readBudget) {
    public Archive {
      require(hotDays >= 1, "archive.hot-days must be at least 1");
      require(!interval.isNegative(), "archive.interval must not be negative");
      require(readBudget.toMillis() > 0, "archive.read-budget must be positive");
    }
  }

  /**
   * The health answers ({@code /health/ready}): the projection counts as degraded while it is more
   * than {@code projectorLagThreshold} events behind the events topic.
   */
  public record Health(long projectorLagThreshold) {
    public Health {
      require(projectorLagThreshold >= 0, "health.projector-lag-threshold must not be negative");
    }
  }

  /**
   * Fetches (GET messages, the handshake, activation, the list): a token bucket per device of
   * {@code ratePerSecond} refill and {@code burst} size, and two lanes, first screens and history
   * paging, each with its own bounded concurrency and wait; a handshake answers at most
   * {@code syncPageSize} conversations ({@code sync.page-size}) and says where the next page starts;
   * its first {@code syncScreenConversations} carry their first screens, within {@code syncScreenBytes}
   * of content; a stopping server spreads its sockets' reconnects at {@code syncReconnectRate} a second.
   */
  public record Fetch(int ratePerSecond, int burst, Lane firstScreen, Lane paging, int syncPageSize,
      int syncScreenConversations, long syncScreenBytes, int syncReconnectRate) {
    /** Of the HTTP server's 250 threads, what the lanes may hold at most; the rest serve everything else. */
    public static final int MAX_LANE_THREADS = 200;
    /** Defaults of the handshake's first screens (issue 40): conversations carried, bytes of content, reconnects/s. */
    public static final int SYNC_SCREEN_CONVERSATIONS = 100;
    public static final long SYNC_SCREEN_BYTES = 1 << 20;
    public static final int SYNC_RECONNECT_RATE = 2_000;

    public Fetch {
      require(ratePerSecond > 0 && ratePerSecond <= 1_000_000, "fetch.rate must be 1..1000000");
      require(burst > 0, "fetch.burst must be positive");
      require(firstScreen.threads() + paging.threads() <= MAX_LANE_THREADS,
          "the fetch lanes' concurrency + queue together must be at most " + MAX_LANE_THREADS);
      require(syncPageSize > 0 && syncPageSize <= 10_000, "sync.page-size must be 1..10000");
      require(syncScreenConversations >= 0 && syncScreenConversations <= syncPageSize,
          "sync.screen-conversations must be 0..sync.page-size");
      require(syncScreenBytes >= 0 && syncScreenBytes <= 64L << 20, "sync.screen-bytes must be 0..67108864");
      require(syncReconnectRate > 0, "sync.reconnect-rate must be positive");
    }

    /**
     * A lane: at most {@code concurrency} requests run, at most {@code queue} more wait, each at
     * most {@code maxWait} for its turn ({@code fetch.<name>.wait}).
     */
    public record Lane(String name, int concurrency, int queue, Duration maxWait) {
      public Lane {
        require(concurrency > 0, "fetch." + name + ".concurrency must be positive");
        require(queue >= 0, "fetch." + name + ".queue must not be negative");
        require(!maxWait.isNegative(), "fetch." + name + ".wait must not be negative");
      }

      /** The most HTTP server threads this lane can hold: running and waiting. */
      public int threads() {
        return concurrency + queue;
      }
    }
  }

  /** A host name or address that only this machine reaches: localhost, 127.0.0.0/8 or ::1. */
  static boolean isLoopback(String host) {
    String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    return bare.equalsIgnoreCase("localhost") || bare.matches("127(\\.\\d{1,3}){3}") || bare.equals("::1");
  }

  /**
   * Abuse limits (docs/api.md, "Limits"): token buckets of {@code rate} per second and {@code burst}
   * size, per device, per user or per socket, held in Redis across instances (each call waits at most
   * {@code redisTimeout}, else the instance's own buckets decide); a draft window per device and
   * conversation in which the last draft wins; the push sockets a user opens ({@code socketUser})
   * and holds at once.
   */
  public record Limits(Rate sendDevice, Rate sendUser, Rate positionDevice, Rate draftDevice, Duration draftWindow,
      Rate groupUser, Rate telemetryDevice, Rate frameSocket, Rate socketUser, int socketsPerUser, Duration redisTimeout,
      Rate serverService) {
    public Limits {
      require(!draftWindow.isNegative(), "limits.draft.window must not be negative");
      require(socketsPerUser > 0, "limits.sockets-per-user must be positive");
      require(!redisTimeout.isNegative() && !redisTimeout.isZero(), "limits.redis-timeout must be positive");
    }

    /** The buckets' names, as their properties spell them ({@code limits.<name>.rate}, {@code .burst}). */
    public static final List<String> BUCKETS = List.of("send-device", "send-user", "position-device", "draft-device",
        "group-user", "telemetry-device", "frame-socket", "socket-user", "server-service");

    /**
     * Properties that raise every bucket's rate and burst, and the sockets a user may hold, to
     * {@code at}: for load tools and tests that drive the API far faster than people do, from few
     * devices. The draft window stays.
     */
    public static Map<String, String> raisedTo(int at) {
      Map<String, String> settings = new LinkedHashMap<>();
      for (String bucket : BUCKETS) {
        settings.put("limits." + bucket + ".rate", Integer.toString(at));
        settings.put("limits." + bucket + ".burst", Integer.toString(at));
      }
      settings.put("limits.sockets-per-user", Integer.toString(at));
      return settings;
    }

    /** {@link #raisedTo} as environment variables ({@code SEQSYNC_LIMITS_SEND_DEVICE_RATE}, ...). */
    public static Map<String, String> raisedToAsEnvironment(int at) {
      Map<String, String> env = new LinkedHashMap<>();
      raisedTo(at).forEach((name, value) ->
          env.put("SEQSYNC_" + name.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_'), value));
      return env;
    }

    /** A bucket: refilled at {@code perSecond} (a fraction: slower than one a second), {@code burst} at once. */
    public record Rate(String name, double perSecond, int burst) {
      public Rate {
        require(perSecond > 0 && perSecond <= 1_000_000, "limits." + name + ".rate must be above 0, at most 1000000");
        require(burst > 0, "limits." + name + ".burst must be positive");
      }
    }
  }

  /** True when no external service is configured for any of Kafka, PostgreSQL and Redis. */
  public boolean fullyEmbedded() {
    return kafka.bootstrapServers().isEmpty() && postgres.jdbcUrl().isEmpty() && redis.uri().isEmpty();
  }

  static void require(boolean condition, String message) {
    if (!condition) {
      throw new ConfigException(message);
    }
  }

  /**
   * The ingress's group limits (the sequencer keeps {@code sequencer.max-group-members}): at most
   * {@code maxAddedPerRequest} users added by one request (creation or change), and a user in at
   * most {@code maxPerUser} groups, checked against the committed projection when the user is
   * added or creates a group.
   */
  public record Groups(int maxAddedPerRequest, int maxPerUser) {
    public Groups {
      require(maxAddedPerRequest > 0, "groups.max-added-per-request must be positive");
      require(maxPerUser > 0, "groups.max-per-user must be positive");
    }
  }

  /**
   * Typing and presence (docs/design.md, "Typing and presence"): a push socket is live for
   * {@code socketTtl} after its instance's last beat for it (beats every third of it), so a killed
   * instance's sockets age out within it; a user's presence changes go out at most once per
   * {@code throttle}; a device's typing in a conversation is relayed at most once per
   * {@code typingInterval}, and shown by the others for {@code typingTimeout} unless renewed.
   */
  public record Presence(Duration socketTtl, Duration throttle, Duration typingInterval, Duration typingTimeout) {
    public Presence {
      require(socketTtl.toSeconds() >= 3, "presence.socket-ttl must be at least 3s");
      require(!throttle.isNegative() && throttle.compareTo(Duration.ofMinutes(1)) <= 0,
          "presence.throttle must be 0s-1m");
      require(!typingInterval.isNegative(), "presence.typing-interval must not be negative");
      require(typingTimeout.compareTo(typingInterval) > 0, "presence.typing-timeout must be above presence.typing-interval");
    }
  }
}
