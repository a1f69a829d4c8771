package io.seqsync.projector.replay;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seqsync.config.Endpoints;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.ProjectorSettings;
import io.seqsync.config.RedisEndpoint;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.config.Servers;
import io.seqsync.consumers.TopicAdmin;
import io.seqsync.events.Topics;
import io.seqsync.projector.Announcer;
import io.seqsync.projector.DeliveryProjector;
import io.seqsync.projector.Projector;
import io.seqsync.projector.erasure.UserErasure;
import io.seqsync.projector.postgres.DeliveryLedger;
import io.seqsync.projector.postgres.ProjectionWipe;
import io.seqsync.redis.ConversationIndex;
import io.seqsync.redis.RedisClients;
import io.seqsync.store.Database;
import io.seqsync.store.keys.ContentOpener;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.jdbi.v3.core.Handle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;

/**
 * Rebuilds every projection from the topics (D5): PostgreSQL's tables from the event log, which is
 * kept forever, and the delivery tables from the telemetry topic (as far back as it keeps: 92
 * days); Redis's index is forgotten, so that each key is rebuilt from PostgreSQL on its first read,
 * as after a Redis restart. For a lost PostgreSQL, one restored from an old backup, or a projection
 * fixed in code. It runs while the app is stopped: it refuses, before it changes anything, while
 * either projector's consumer group has a member, and when the event log cannot rebuild what
 * PostgreSQL holds ({@link #problemWithLog}). Messages older than the hot tier come back into the hot table; the
 * archive job moves them again at its next run. Not thread-safe: one replay at a time.
 */
public final class ProjectionReplay {
  private static final Logger log = LoggerFactory.getLogger(ProjectionReplay.class);
  private static final Duration CHECK_EVERY = Duration.ofMillis(200);
  private static final Duration REPORT_EVERY = Duration.ofSeconds(10);
  /** How long a projector may make no progress before the replay gives up (it retries failures forever). */
  private static final Duration STALL_LIMIT = Duration.ofMinutes(5);

  /** What a replay did: the tables it emptied, the Redis keys it deleted and what it rebuilt. */
  public record Summary(List<String> tables, long redisKeys, long eventOffsets, long messages, long conversations,
      long telemetryOffsets, long renders, long deliveryCases, Duration took) {
    public Summary {
      tables = List.copyOf(tables);
    }
  }

  /** Refused, nothing changed. */
  public static final class Refused extends RuntimeException {
    Refused(String message) {
      super(message);
    }
  }

  private final KafkaConnection kafka;
  private final SeqsyncConfig config;
  private final Topics topics;
  private final Database database;
  private final UnifiedJedis redis;

  /** A replay against these servers ({@link #run} starts them); for tests that hold them already. */
  public ProjectionReplay(KafkaConnection kafka, SeqsyncConfig config, Database database, UnifiedJedis redis) {
    this.kafka = kafka;
    this.config = config;
    this.topics = Topics.from(config.kafka());
    this.database = database;
    this.redis = redis;
  }

  /** Starts the configured (or embedded) servers, replays, stops them. */
  public static Summary run(SeqsyncConfig config) {
    Servers servers;
    try {
      servers = Servers.start(config);
    } catch (RuntimeException e) {
      throw new Refused("cannot start the servers: " + e.getMessage());
    }
    Endpoints at = servers.endpoints();
    try (servers;
        Database database = Database.open(at.postgresJdbcUrl(), at.postgresUser(), at.postgresPassword(), 3);
        UnifiedJedis redis = RedisClients.connect(RedisEndpoint.parse(at.redisUri()).trusting(config.redis().truststore()))) {
      return new ProjectionReplay(KafkaConnection.of(config.kafka(), at), config, database, redis).replay();
    }
  }

  /** Empties the projection and rebuilds it; refused (nothing changed) while a projector's group has a member. */
  public Summary replay() {
    long began = System.nanoTime();
    TopicAdmin.ensure(kafka, topics, config.kafka().replicationFactor());
    try (Admin admin = Admin.create(kafka.with(Map.of()))) {
      String deliveryGroup = config.delivery().groupId();
      requireNoMembers(admin, config.projector().groupId());
      requireNoMembers(admin, deliveryGroup);
      Map<Integer, Long> eventEnds = offsets(admin, topics.events().name(), OffsetSpec.latest());
      Map<Integer, Long> telemetryEnds = offsets(admin, topics.telemetry().name(), OffsetSpec.latest());
      requireRebuildable(offsets(admin, topics.events().name(), OffsetSpec.earliest()), eventEnds);

      ProjectionWipe.run(database.jdbi());
      List<String> tables = ProjectionWipe.TABLES;
      forgetCommittedOffsets(admin, deliveryGroup, topics.telemetry().name(), telemetryEnds.keySet());
      long redisKeys = new ConversationIndex(redis).forgetAll();
      log.info("replay: emptied {} tables and {} Redis keys; projecting {} up to {}", tables.size(), redisKeys,
          topics.events().name(), eventEnds);

      // Events first: a delivery report is matched against the message it names.
      ProjectorSettings member = withoutInstanceId(config.projector());
      try (Projector projector = new Projector(kafka, topics, database, Announcer.NONE, new SimpleMeterRegistry(),
          member, ContentOpener.of(config, database.jdbi()))) {
        projector.start();
        awaitCaughtUp(topics.events().name(), projector::projectedPositions, eventEnds,
            () -> projector.stopped().isCompletedExceptionally());
      }
      // The log still holds what erased users did (memberships, positions): their rows go again.
      int erasedUsers = UserErasure.purgeErased(database.jdbi());
      if (erasedUsers > 0) {
        log.info("replay: purged the rows of {} erased users again", erasedUsers);
      }
      try (DeliveryProjector deliveries = new DeliveryProjector(kafka, topics.telemetry(), deliveryGroup,
          database, new DeliveryLedger(config.delivery().renderTarget()), member, new SimpleMeterRegistry())) {
        deliveries.start();
        awaitCaughtUp(topics.telemetry().name(), () -> committedOffsets(admin, deliveryGroup), telemetryEnds, () -> false);
      }
      return database.jdbi().withHandle(handle -> new Summary(tables, redisKeys, total(eventEnds),
          count(handle, "messages"), count(handle, "conversations"), total(telemetryEnds),
          count(handle, "message_renders"), count(handle, "delivery_cases"), Duration.ofNanos(System.nanoTime() - began)));
    }
  }

  // A member would keep projecting while the tables are emptied, or own partitions the replay waits for.
  private static void requireNoMembers(Admin admin, String group) {
    ConsumerGroupDescription description = get(admin.describeConsumerGroups(List.of(group)).describedGroups().get(group));
    if (!description.members().isEmpty()) {
      throw new Refused("consumer group " + group + " has " + description.members().size()
          + " member(s): stop every seqsync app and projector first (an instance that was killed leaves the group"
          + " after projector.session-timeout)");
    }
  }

  private void requireRebuildable(Map<Integer, Long> earliest, Map<Integer, Long> ends) {
    long messagesNow = database.jdbi().withHandle(handle -> count(handle, "all_messages"));
    Optional<String> problem = problemWithLog(earliest, ends, messagesNow);
    if (problem.isPresent()) {
      throw new Refused(problem.get());
    }
  }

  /**
   * Why the event log cannot rebuild the projection, if it cannot: it no longer starts at offset 0
   * (something deleted its beginning, and with it messages), or it is empty while PostgreSQL holds
   * messages (most likely another Kafka cluster than the one that made them).
   */
  static Optional<String> problemWithLog(Map<Integer, Long> earliest, Map<Integer, Long> ends, long messagesInPostgres) {
    List<Integer> cut = earliest.entrySet().stream().filter(entry -> entry.getValue() > 0).map(Map.Entry::getKey)
        .sorted().toList();
    if (!cut.isEmpty()) {
      return Optional.of("the event log no longer starts at offset 0 in partitions " + cut
          + ": its beginning was deleted, and a replay would lose those messages");
    }
    if (total(ends) == 0 && messagesInPostgres > 0) {
      return Optional.of("the event log is empty while PostgreSQL holds " + messagesInPostgres
          + " messages: is this the Kafka cluster that made them?");
    }
    return Optional.empty();
  }

  private static Map<Integer, Long> offsets(Admin admin, String topic, OffsetSpec spec) {
    int partitions = get(admin.describeTopics(List.of(topic)).allTopicNames()).get(topic).partitions().size();
    Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
    for (int partition = 0; partition < partitions; partition++) {
      specs.put(new TopicPartition(topic, partition), spec);
    }
    return get(admin.listOffsets(specs, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all()).entrySet().stream()
        .collect(Collectors.toMap(entry -> entry.getKey().partition(), entry -> entry.getValue().offset()));
  }

  // The delivery projector then starts from the oldest report kept (its auto.offset.reset).
  private static void forgetCommittedOffsets(Admin admin, String group, String topic, Set<Integer> partitions) {
    try {
      admin.deleteConsumerGroupOffsets(group, partitions.stream().map(partition -> new TopicPartition(topic, partition))
          .collect(Collectors.toSet())).all().get();
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof GroupIdNotFoundException)) {
        throw new IllegalStateException("cannot reset the offsets of group " + group, e.getCause());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static Map<Integer, Long> committedOffsets(Admin admin, String group) {
    Map<TopicPartition, OffsetAndMetadata> committed = get(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
    return committed.entrySet().stream().filter(entry -> entry.getValue() != null)
        .collect(Collectors.toMap(entry -> entry.getKey().partition(), entry -> entry.getValue().offset()));
  }

  private static void awaitCaughtUp(String topic, Supplier<Map<Integer, Long>> positions, Map<Integer, Long> ends,
      BooleanSupplier failed) {
    long lastProgressAt = System.nanoTime();
    long lastReportAt = System.nanoTime();
    long done = -1;
    while (true) {
      Map<Integer, Long> now = positions.get();
      long reached = ends.entrySet().stream().mapToLong(end -> Math.min(end.getValue(), now.getOrDefault(end.getKey(), 0L))).sum();
      boolean caughtUp = ends.entrySet().stream()
          .allMatch(end -> end.getValue() == 0 || now.getOrDefault(end.getKey(), -1L) >= end.getValue());
      if (caughtUp) {
        log.info("replay: {} caught up ({} offsets)", topic, total(ends));
        return;
      }
      if (failed.getAsBoolean()) {
        throw new IllegalStateException("the projector of " + topic + " failed; see the log above");
      }
      if (reached > done) {
        done = reached;
        lastProgressAt = System.nanoTime();
      } else if (System.nanoTime() - lastProgressAt > STALL_LIMIT.toNanos()) {
        throw new IllegalStateException("no progress on " + topic + " for " + STALL_LIMIT.toMinutes() + " minutes at "
            + reached + " of " + total(ends) + " offsets");
      }
      if (System.nanoTime() - lastReportAt > REPORT_EVERY.toNanos()) {
        lastReportAt = System.nanoTime();
        log.info("replay: {} at {} of {} offsets", topic, reached, total(ends));
      }
      sleep(CHECK_EVERY);
    }
  }

  // A dynamic member: a static one would fence (or be fenced by) an instance with the same id.
  private static ProjectorSettings withoutInstanceId(ProjectorSettings settings) {
    return new ProjectorSettings(settings.groupId(), Optional.empty(), settings.maxPollRecords(),
        settings.sessionTimeout(), settings.retryBackoff());
  }

  private static long total(Map<Integer, Long> offsets) {
    return offsets.values().stream().mapToLong(Long::longValue).sum();
  }

  private static long count(Handle handle, String table) {
    return handle.createQuery("select count(*) from " + table).mapTo(Long.class).one();
  }

  private static <T> T get(KafkaFuture<T> future) {
    try {
      return future.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("Kafka admin request failed: " + e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
