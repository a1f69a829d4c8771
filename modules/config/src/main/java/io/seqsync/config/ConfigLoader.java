package io.seqsync.config;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Function;

/**
 * Reads {@link SeqsyncConfig}. Each setting has a property name ({@code kafka.bootstrap-servers})
 * and an environment variable ({@code SEQSYNC_KAFKA_BOOTSTRAP_SERVERS}); the environment wins over
 * the properties file, which wins over the default. The properties file is the one named by
 * {@code SEQSYNC_CONFIG}, else {@code ./seqsync.properties} when it exists.
 */
public final class ConfigLoader {
  private final Map<String, String> values;

  private ConfigLoader(Map<String, String> values) {
    this.values = values;
  }

  /** The configuration of this process: its environment and its properties file. */
  public static SeqsyncConfig fromEnvironment() {
    Map<String, String> env = System.getenv();
    Path file = Path.of(env.getOrDefault("SEQSYNC_CONFIG", "seqsync.properties"));
    return load(env, Files.isRegularFile(file) ? Optional.of(file) : Optional.empty());
  }

  /** Defaults overridden by {@code file} (if any), overridden by {@code environment}. */
  public static SeqsyncConfig load(Map<String, String> environment, Optional<Path> file) {
    Map<String, String> merged = new HashMap<>();
    file.ifPresent(path -> merged.putAll(readProperties(path)));
    environment.forEach((name, value) -> {
      if (name.startsWith("SEQSYNC_") && !name.equals("SEQSYNC_CONFIG")) {
        merged.put(normalize(name.substring("SEQSYNC_".length())), value);
      }
    });
    return new ConfigLoader(merged).build();
  }

  /** Only the given overrides on top of the defaults: for tests and tools. */
  public static SeqsyncConfig of(Map<String, String> properties) {
    Map<String, String> normalized = new HashMap<>();
    properties.forEach((name, value) -> normalized.put(normalize(name), value));
    return new ConfigLoader(normalized).build();
  }

  private SeqsyncConfig build() {
    int partitions = integer("kafka.partitions", 6);
    short replicationFactor = (short) integer("kafka.replication-factor", 1);
    int poolSize = integer("postgres.pool-size", 16);
    return new SeqsyncConfig(
        Path.of(string("data-dir", "data")).toAbsolutePath(),
        optional("instance-id"),
        new KafkaSettings(
            optional("kafka.bootstrap-servers"),
            string("kafka.topic-prefix", "seqsync."),
            integer("kafka.command-partitions", partitions),
            integer("kafka.event-partitions", partitions),
            replicationFactor,
            (short) integer("kafka.min-insync-replicas", KafkaSettings.majorityOf(replicationFactor)),
            integer("kafka.embedded-port", 9092),
            kafkaSecurity()),
        new PostgresSettings(
            optional("postgres.jdbc-url"), string("postgres.user", "postgres"), string("postgres.password", ""),
            integer("postgres.embedded-port", 15432),
            poolSize, integer("postgres.background-pool-size", 4),
            duration("postgres.statement-timeout", Duration.ofSeconds(5)),
            commaSeparated("postgres.replica-jdbc-urls"),
            PostgresShards.parse(optional("postgres.shards")),
            Boolean.parseBoolean(string("postgres.embedded-fsync", "false"))),
        new RedisSettings(optional("redis.uri"), integer("redis.embedded-port", 16379),
            keyStore("redis.truststore")),
        new SequencerSettings(
            string("sequencer.application-id", "seqsync-sequencer"),
            duration("sequencer.dedup-window", Duration.ofHours(24)),
            integer("sequencer.stream-threads", 1),
            // A send is answered after the transaction that numbers it commits, so not Streams' 100 ms;
            // 20 ms rather than 10: fewer commits, each with its own cost to the broker and the client,
            // kept the 5,000/s tail short on the slower machines. With replicated topics a commit
            // waits for replicated markers, and an interval shorter than that leaves Streams one
            // record per task per commit: 100 ms (docs/design.md, "Commit interval").
            duration("sequencer.commit-interval", Duration.ofMillis(replicationFactor > 1 ? 100 : 20)),
            duration("sequencer.session-timeout", Duration.ofSeconds(10)),
            integer("sequencer.max-content-bytes", 64 * 1024),
            integer("sequencer.max-group-members", 10_000),
            bool("sequencer.transactional-stores", true),
            new AttachmentLimits(integer("attachments.max-bytes", AttachmentLimits.DEFAULT_MAX_BYTES),
                java.util.List.of(string("attachments.types", String.join(",", AttachmentLimits.DEFAULT_TYPES)).split(","))),
            // Message actions: how long after sending the sender may edit a message.
            duration("sequencer.edit-window", Duration.ofMinutes(15))),
        // With the development secret anyone can mint tokens: reachable from this machine only, unless asked.
        new HttpSettings(string("http.host", optional("auth.secret").isEmpty() ? "127.0.0.1" : "0.0.0.0"),
            integer("http.port", 8080),
            duration("http.reply-budget", Duration.ofSeconds(2)),
            // 5 ms, Kafka's default, not 1: 35-49 % fewer produce requests at 1,000 sends/s and mostly lower
            // latencies on a full 2-core machine; 1 ms gains 3-4 ms of p50 where CPU is spare
            // (docs/design.md, "Return paths").
            duration("http.command-linger", Duration.ofMillis(5)),
            // Off, as in the ws and Bun servers: permessage-deflate holds a compressor per socket on both
            // ends (docs/benchmarks.md, "Push socket memory").
            bool("http.stream-compression", false)),
        new AuthSettings(optional("auth.secret"), duration("auth.demo-token-ttl", Duration.ofDays(30)),
            identityProvider()),
        new ProjectorSettings(string("projector.group-id", "seqsync-projector"), optional("projector.instance-id"),
            integer("projector.max-poll-records", 2000), duration("projector.session-timeout", Duration.ofSeconds(45)),
            duration("projector.retry-backoff", Duration.ofSeconds(1))),
        new FetchSettings(integer("fetch.rate", 50), integer("fetch.burst", 200),
            lane("first-screen", Math.max(1, poolSize / 2), 64, Duration.ofSeconds(2)),
            lane("paging", Math.max(1, poolSize / 8), 16, Duration.ofMillis(500)),
            integer("sync.page-size", 500),
            integer("sync.screen-conversations",
                Math.min(FetchSettings.SYNC_SCREEN_CONVERSATIONS, integer("sync.page-size", 500))),
            number("sync.screen-bytes", FetchSettings.SYNC_SCREEN_BYTES, Long::parseLong, "an integer"),
            integer("sync.reconnect-rate", FetchSettings.SYNC_RECONNECT_RATE)),
        new DeliverySettings(string("delivery.group-id", "seqsync-delivery"),
            duration("delivery.render-target", Duration.ofSeconds(2)), duration("delivery.figures-cache", Duration.ofSeconds(30))),
        new ArchiveSettings(integer("archive.hot-days", 45), duration("archive.interval", Duration.ofHours(1)),
            duration("archive.read-budget", Duration.ofSeconds(3))),
        new HealthSettings(integer("health.projector-lag-threshold", 10_000)),
        limits(), new GroupsSettings(integer("groups.max-added-per-request", 100), integer("groups.max-per-user", 1_000)),
        new PresenceSettings(duration("presence.socket-ttl", Duration.ofSeconds(30)),
            duration("presence.throttle", Duration.ofSeconds(1)), duration("presence.typing-interval", Duration.ofSeconds(2)),
            duration("presence.typing-timeout", Duration.ofSeconds(6))),
        Integrations.load(this::optional),
        objectStore(),
        new NotifySettings(bool("notify.enabled", true), duration("notify.coalesce-window", Duration.ofSeconds(2)),
            bool("notify.preview", true), integer("notify.max-attempts", 6),
            duration("notify.first-backoff", Duration.ofSeconds(1)), duration("notify.max-backoff", Duration.ofMinutes(5)),
            duration("notify.request-timeout", Duration.ofSeconds(10)), integer("notify.in-flight", 256),
            string("notify.vapid-subject", "mailto:ops@seqsync.invalid"), integer("notify.pushers-per-user", 20)),
        new Erasure(bool("crypto.encrypt-content", true), optional("crypto.master-key"),
            optional("crypto.old-master-keys").map(keys -> List.of(keys.split("\\s*,\\s*"))).orElse(List.of()),
            integer("retention.days", 0), duration("retention.interval", Duration.ofHours(1))));
  }

  // Unconfigured: the embedded S3 server on any free port, with its own credentials.
  private ObjectStoreSettings objectStore() {
    Optional<String> endpoint = optional("s3.endpoint");
    return new ObjectStoreSettings(endpoint, string("s3.bucket", "seqsync-attachments"),
        string("s3.region", "us-east-1"),
        string("s3.access-key", endpoint.isPresent() ? "" : ObjectStoreSettings.EMBEDDED_ACCESS_KEY),
        string("s3.secret-key", endpoint.isPresent() ? "" : ObjectStoreSettings.EMBEDDED_SECRET_KEY),
        bool("s3.path-style", endpoint.isEmpty()), integer("s3.embedded-port", 0),
        duration("attachments.url-ttl", Duration.ofMinutes(5)));
  }

  // A person types at most a few messages a second; the bursts let an outbox or a catch-up
  // (acks of many conversations at once) through without waiting (docs/api.md, "Limits").
  private LimitsSettings limits() {
    return new LimitsSettings(rate("send-device", 5, 30), rate("send-user", 10, 60),
        rate("position-device", 20, 200), rate("draft-device", 10, 40), duration("limits.draft.window", Duration.ofSeconds(1)),
        rate("group-user", 1, 20), rate("telemetry-device", 10, 100), rate("frame-socket", 20, 100),
        rate("socket-user", 2, 20), integer("limits.sockets-per-user", 20), duration("limits.redis-timeout", Duration.ofMillis(50)),
        rate("server-service", 100, 1000));
  }

  private LimitsSettings.Rate rate(String name, double perSecond, int burst) {
    String prefix = "limits." + name + ".";
    return new LimitsSettings.Rate(name, decimal(prefix + "rate", perSecond), integer(prefix + "burst", burst));
  }

  private double decimal(String name, double fallback) {
    return number(name, fallback, Double::parseDouble, "a number");
  }

  private KafkaSecurity kafkaSecurity() {
    return new KafkaSecurity(string("kafka.security-protocol", "PLAINTEXT"), keyStore("kafka.ssl-truststore"),
        keyStore("kafka.ssl-keystore"), optional("kafka.sasl-mechanism").map(mechanism -> new KafkaSecurity.Sasl(
            mechanism.toUpperCase(Locale.ROOT), string("kafka.sasl-username", ""), string("kafka.sasl-password", ""))));
  }

  // PREFIX-location, PREFIX-password and PREFIX-type (PKCS12 unless said).
  private Optional<KeyStoreFile> keyStore(String prefix) {
    return optional(prefix + "-location").map(location -> new KeyStoreFile(
        Path.of(location), string(prefix + "-password", ""), string(prefix + "-type", "PKCS12")));
  }

  // Only with auth.jwks-url; the issuer and audience are then required (the record says so).
  private Optional<IdentityProviderSettings> identityProvider() {
    return optional("auth.jwks-url").map(url -> new IdentityProviderSettings(uri("auth.jwks-url", url),
        string("auth.issuer", ""), string("auth.audience", ""), string("auth.user-claim", "sub"),
        string("auth.device-claim", "did"), duration("auth.clock-skew", Duration.ofSeconds(60)),
        string("auth.ops-claim", "ops"), string("auth.ops-role", "seqsync-ops")));
  }

  private static URI uri(String name, String value) {
    try {
      return new URI(value);
    } catch (URISyntaxException e) {
      throw new ConfigException(name + " must be a URL, got '" + value + "'");
    }
  }

  private FetchSettings.Lane lane(String name, int concurrency, int queue, Duration wait) {
    String prefix = "fetch." + name + ".";
    return new FetchSettings.Lane(name, integer(prefix + "concurrency", concurrency),
        integer(prefix + "queue", queue), duration(prefix + "wait", wait));
  }

  // Environment names lose the distinction between '.' and '-': compare the two spellings alike.
  private static String normalize(String name) {
    return name.toLowerCase(Locale.ROOT).replace('.', '-').replace('_', '-');
  }

  private List<String> commaSeparated(String name) {
    return optional(name).stream().flatMap(value -> Arrays.stream(value.split(",")))
        .map(String::trim).filter(item -> !item.isEmpty()).toList();
  }

  private Optional<String> optional(String name) {
    String value = values.get(normalize(name));
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }

  private String string(String name, String fallback) {
    return optional(name).orElse(fallback);
  }

  private int integer(String name, int fallback) {
    return number(name, fallback, Integer::parseInt, "an integer");
  }

  private <T> T number(String name, T fallback, Function<String, T> parse, String what) {
    Optional<String> value = optional(name);
    try {
      return value.isPresent() ? parse.apply(value.get()) : fallback;
    } catch (NumberFormatException e) {
      throw new ConfigException(name + " must be " + what + ", got '" + value.get() + "'");
    }
  }

  private boolean bool(String name, boolean fallback) {
    Optional<String> value = optional(name);
    if (value.isEmpty()) {
      return fallback;
    }
    return switch (value.get().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new ConfigException(name + " must be true or false, got '" + value.get() + "'");
    };
  }

  /** ISO-8601 ({@code PT24H}) or a number with a unit: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 24h}. */
  private Duration duration(String name, Duration fallback) {
    Optional<String> value = optional(name);
    try {
      return value.map(Durations::parse).orElse(fallback);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(name + " must be a duration like 500ms, 30s, 24h or PT24H, got '" + value.get() + "'");
    }
  }


  private static Map<String, String> readProperties(Path path) {
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(path)) {
      properties.load(reader);
    } catch (IOException e) {
      throw new ConfigException("cannot read " + path + ": " + e.getMessage());
    }
    Map<String, String> result = new HashMap<>();
    properties.stringPropertyNames().forEach(name -> result.put(normalize(name), properties.getProperty(name)));
    return result;
  }
}
