package io.seqsync.ingress;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.LimitsSettings;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.events.Topics;
import io.seqsync.ingress.auth.Tokens;
import io.seqsync.ingress.commands.CommandPublisher;
import io.seqsync.ingress.commands.ReplyWaiter;
import io.seqsync.ingress.ops.OpsMonitor;
import io.seqsync.ingress.notify.PushStores;
import io.seqsync.ingress.push.PushHub;
import io.seqsync.ingress.web.DevSignIn;
import io.seqsync.localstack.LocalPostgres;
import io.seqsync.redis.ConversationIndex;
import io.seqsync.redis.ConversationIndexRebuild;
import io.seqsync.redis.ConversationList;
import io.seqsync.redis.RedisHealth;
import io.seqsync.store.ArchiveQueries;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.Database;
import io.seqsync.store.DeliveryQueries;
import io.seqsync.store.GroupQueries;
import io.seqsync.store.IndexSourceQueries;
import io.seqsync.store.ListSettingsQueries;
import io.seqsync.store.PusherQueries;
import io.seqsync.store.MessageQueries;
import io.seqsync.store.PresenceQueries;
import io.seqsync.store.RevocationQueries;
import io.seqsync.store.ServerRequestQueries;
import io.seqsync.store.SyncQueries;
import io.seqsync.store.replica.ReplicaReads;
import java.net.URI;
import java.time.Duration;
import io.seqsync.ingress.attachments.Uploads;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import redis.clients.jedis.JedisPooled;

/**
 * An ingress on a fresh database of a shared PostgreSQL, with the given publisher and waiter, on
 * a free port. Closes the app and the database, not the publisher or waiter.
 */
public final class TestApp implements AutoCloseable {
  public static final String SECRET = "test-secret-test-secret-test-secret-0123";
  private static final AtomicInteger DATABASES = new AtomicInteger();
  private static final int POOL_SIZE = 4;

  /** Where the test writes its rows (no statement timeout); the app reads through its own pool, which has one. */
  final Database database;
  private final java.util.function.Supplier<Database> newPool;
  private final Database requests;
  final Rows rows;
  final Tokens tokens = new Tokens(SECRET);
  final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  final IngressApp app;
  final Http http;
  private JedisPooled redis;
  private RedisHealth redisHealth;

  TestApp(LocalPostgres postgres, CommandPublisher publisher, ReplyWaiter waiter, Duration replyBudget, int maxContentBytes) {
    this(postgres, publisher, waiter, replyBudget, maxContentBytes, Map.of(), null);
  }

  /**
   * With {@code fetchSettings} ({@code fetch.*} and {@code http.stream-compression} properties) over the defaults for this pool, and
   * {@code redisUri} (null: none) serving the conversation list.
   */
  TestApp(LocalPostgres postgres, CommandPublisher publisher, ReplyWaiter waiter, Duration replyBudget, int maxContentBytes,
      Map<String, String> fetchSettings, URI redisUri) {
    this(postgres, publisher, waiter, replyBudget, maxContentBytes, fetchSettings, redisUri, true);
  }

  /** With the development sign-in ({@link DevSignIn}, as in the embedded default) or without it (as anywhere else). */
  TestApp(LocalPostgres postgres, CommandPublisher publisher, ReplyWaiter waiter, Duration replyBudget, int maxContentBytes,
      Map<String, String> fetchSettings, URI redisUri, boolean devSignIn) {
    this(postgres, publisher, waiter, replyBudget, maxContentBytes, fetchSettings, redisUri, devSignIn, Optional.empty());
  }

  /** With attachments' object store ({@code uploads}; empty: attachments off). */
  TestApp(LocalPostgres postgres, CommandPublisher publisher, ReplyWaiter waiter, Duration replyBudget, int maxContentBytes,
      Map<String, String> fetchSettings, URI redisUri, boolean devSignIn, Optional<Uploads> uploads) {
    String url = postgres.createDatabase("ingress_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet());
    database = Database.open(url, postgres.user(), postgres.password(), POOL_SIZE);
    this.newPool = () -> Database.open(url, postgres.user(), postgres.password(), 1);
    rows = new Rows(database.jdbi());
    // These tests send far faster than people, from a few devices: limits raised unless a test sets its own.
    Map<String, String> properties = new HashMap<>(LimitsSettings.raisedTo(1_000_000));
    properties.putAll(fetchSettings);
    properties.put("postgres.pool-size", Integer.toString(POOL_SIZE));
    SeqsyncConfig config = ConfigLoader.of(properties);
    requests = Database.openRequests(url, postgres.user(), postgres.password(), POOL_SIZE,
        config.postgres().statementTimeout());
    MessageQueries messages = new MessageQueries(requests.jdbi());
    SyncQueries sync = new SyncQueries(requests.jdbi(), config.fetch().syncPageSize(),
        config.fetch().syncScreenConversations(), config.fetch().syncScreenBytes());
    IngressStores stores = new IngressStores(messages, new ConversationQueries(requests.jdbi()),
        list(redisUri), new ArchiveQueries(requests.jdbi(), config.archive().readBudget()),
        new DeliveryQueries(requests.jdbi(), config.delivery().renderTarget()), sync, requests.statementTimeouts(),
        new RevocationQueries(requests.jdbi()), new GroupQueries(requests.jdbi()), Optional.empty(),
        new PresenceQueries(requests.jdbi()), new ServerRequestQueries(requests.jdbi()), uploads,
        new PushStores(new PusherQueries(requests.jdbi()), new ListSettingsQueries(requests.jdbi()), Optional.empty(),
            config.notifications().pushersPerUser()), ReplicaReads.primaryOnly(messages, sync));
    app = new IngressApp(new IngressSettings("127.0.0.1", 0, replyBudget, maxContentBytes,
        config.sequencer().maxGroupMembers(), config.fetch(), config.http().streamCompression(),
        config.delivery().figuresCache(), config.limits(), config.groups(), config.integrations(),
        config.sequencer().editWindow()),
        new CommandChannels(publisher, waiter, Topics.from(config.kafka()).telemetry()), stores, new PushHub(),
        new Identity(tokens, devSignIn ? Optional.of(new DevSignIn(tokens, Duration.ofHours(1))) : Optional.empty()),
        new Observability(registry, monitor(config, stores), List.of()))
        .start();
    http = new Http(app.port());
  }

  // Never started: these tests have no Kafka to look at, and the dashboard says it has not looked yet.
  private OpsMonitor monitor(SeqsyncConfig config, IngressStores stores) {
    return new OpsMonitor(KafkaConnection.plain(UnreachableKafka.ADDRESS), Topics.from(config.kafka()),
        config.sequencer().applicationId(), requests.jdbi(), stores.delivery(), registry);
  }

  // Without a Redis URI, one that never answers: the list comes from PostgreSQL.
  private ConversationList list(URI redisUri) {
    URI uri = redisUri == null ? URI.create("redis://127.0.0.1:1") : redisUri;
    redis = new JedisPooled(uri.getHost(), uri.getPort());
    redisHealth = new RedisHealth(uri.toString());
    return new ConversationList(redis,
        new ConversationIndexRebuild(new IndexSourceQueries(requests.jdbi()), new ConversationIndex(redis)),
        new ConversationQueries(requests.jdbi()), redisHealth);
  }

  String token(long userId, String deviceId) {
    return tokens.mint(userId, deviceId, Duration.ofHours(1));
  }

  /** A pool of its own (one connection) on this app's database: the caller closes it. */
  Database openPool() {
    return newPool.get();
  }

  @Override
  public void close() {
    app.close();
    requests.close();
    database.close();
    registry.close();
    redis.close();
    redisHealth.close();
  }
}
