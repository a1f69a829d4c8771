package io.seqsync.app;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.seqsync.config.Endpoints;
import io.seqsync.events.AttachmentRules;
import io.seqsync.ingress.attachments.Uploads;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.RedisEndpoint;
import io.seqsync.config.InstanceId;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.config.Servers;
import io.seqsync.events.Topics;
import io.seqsync.ingress.CommandChannels;
import io.seqsync.ingress.commands.CommandSealing;
import io.seqsync.ingress.Identity;
import io.seqsync.ingress.IngressApp;
import io.seqsync.ingress.IngressSettings;
import io.seqsync.ingress.IngressStores;
import io.seqsync.ingress.Observability;
import io.seqsync.ingress.auth.BearerTokens;
import io.seqsync.ingress.auth.IdentityProviderTokens;
import io.seqsync.ingress.auth.Tokens;
import io.seqsync.ingress.commands.CommandPublisher;
import io.seqsync.ingress.commands.ReplyWaiter;
import io.seqsync.ingress.ops.OpsMonitor;
import io.seqsync.ingress.api.AccessControl;
import io.seqsync.ingress.push.Liveness;
import io.seqsync.ingress.push.PushHub;
import io.seqsync.ingress.notify.PushStores;
import io.seqsync.notifier.push.PushNotifications;
import io.seqsync.notifier.push.VapidKeys;
import io.seqsync.ingress.web.DevSignIn;
import io.seqsync.projector.AnnouncementPublisher;
import io.seqsync.projector.ConversationIndexer;
import io.seqsync.projector.DeliveryProjector;
import io.seqsync.projector.Projector;
import io.seqsync.projector.erasure.UserErasure;
import io.seqsync.projector.PushPublisher;
import io.seqsync.projector.postgres.DeliveryLedger;
import io.seqsync.projector.postgres.MessageArchive;
import io.seqsync.redis.ConversationIndex;
import io.seqsync.redis.ConversationIndexRebuild;
import io.seqsync.redis.ConversationList;
import io.seqsync.redis.RedisClients;
import io.seqsync.redis.RedisHealth;
import io.seqsync.redis.RedisLimits;
import io.seqsync.redis.SocketRegistry;
import io.seqsync.sequencer.SequencerService;
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
import io.seqsync.notifier.webhooks.Webhooks;
import io.seqsync.store.SyncQueries;
import io.seqsync.store.replica.ReplicaReads;
import io.seqsync.store.shard.ShardAvailability;
import io.seqsync.store.shard.ShardMap;
import io.seqsync.store.shard.Shards;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;

/**
 * The whole backend in one process: the servers (configured or embedded), the sequencer, the
 * projector and the HTTP ingress. Closing stops them in the reverse order of their start.
 */
public final class SeqsyncApp implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SeqsyncApp.class);
  // A shard is down from its first probe not answered within the timeout until one answers.
  private static final Duration SHARD_PROBE_EVERY = Duration.ofSeconds(1);
  private static final Duration SHARD_PROBE_TIMEOUT = Duration.ofSeconds(2);

  private final Deque<AutoCloseable> started = new ArrayDeque<>();
  private final Tokens tokens;
  private Endpoints endpoints;
  private IngressApp ingress;
  private CommandSealing sealing;

  private SeqsyncApp(Tokens tokens) {
    this.tokens = tokens;
  }

  /** Starts everything; on a failure, stops what had started and rethrows. */
  public static SeqsyncApp start(SeqsyncConfig config) {
    SeqsyncApp app = new SeqsyncApp(StartupChecks.tokens(config));
    try {
      app.startComponents(config);
    } catch (RuntimeException e) {
      app.close();
      throw e;
    }
    return app;
  }

  private void startComponents(SeqsyncConfig configured) {
    StartupPhases phases = new StartupPhases();
    Servers servers = own(Servers.start(configured));
    endpoints = servers.endpoints();
    phases.done("servers");
    // After the servers: an embedded stack's start holds the data directory's lock, so only this instance names itself there.
    SeqsyncConfig config = InstanceId.applied(configured);
    KafkaConnection kafka = KafkaConnection.of(config.kafka(), endpoints);
    Topics topics = Topics.from(config.kafka());
    // Nothing else waits for the sequencer's start (Streams' clients, its stores opened, the group
    // joined, the changelogs' tail restored: seconds after a crash, docs/design.md, "Restart"):
    // PostgreSQL's pool and migrations, the projectors and the ingress start meanwhile, and a send
    // taken before it runs waits in the commands topic.
    // Every shard's pools (one shard, the endpoint's, unless postgres.shards is set); opening them migrates each.
    CompletableFuture<Shards> opening = CompletableFuture.supplyAsync(() -> Shards.open(
        config.postgres().shards().urlOfPartition(config.kafka().eventPartitions(), endpoints.postgresJdbcUrl()),
        new Shards.Pools(endpoints.postgresUser(), endpoints.postgresPassword(), config.postgres().poolSize(),
            config.postgres().backgroundPoolSize(), config.postgres().statementTimeout())));
    own(() -> closeStarted(opening));
    SequencerService.ensureTopics(kafka, config);
    phases.done("topics");
    CompletableFuture<SequencerService> sequencing = CompletableFuture.supplyAsync(
        () -> SequencerService.launch(kafka, config), runnable -> new Thread(runnable, "seqsync-sequencer-start").start());
    own(() -> closeStarted(sequencing));
    Shards shards = joined(opening);
    // What is not per conversation stays on the home shard (shard 0). What users drive runs under
    // the statement timeout, on pools of their own: the projectors' writes and the archive job
    // (the background pools) are never cut by it.
    Database database = shards.home();
    Database requests = shards.homeRequests();
    ShardMap byConversation = shards.requests();
    phases.done("database");
    RedisEndpoint redisEndpoint = RedisEndpoint.parse(endpoints.redisUri()).trusting(config.redis().truststore());
    UnifiedJedis redis = own(RedisClients.connect(redisEndpoint));
    RedisHealth redisHealth = own(new RedisHealth(redisEndpoint));
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    own(registry::close);
    AnnouncementPublisher announcements = own(new AnnouncementPublisher(kafka, topics.announcements(), registry,
        config.postgres().hasReplicas()));
    ConversationIndex index = new ConversationIndex(redis);
    // The key store lives on the home shard.
    ContentCrypto crypto = own(new ContentCrypto(config, shards.background(), index));
    // While a shard's primary does not answer, its conversations' commands are refused (503) and the
    // projector goes on with the other shards.
    ShardAvailability availability = own(ShardAvailability.probing(byConversation, SHARD_PROBE_EVERY, SHARD_PROBE_TIMEOUT));
    registerShardGauges(availability, registry);
    Projector projector = own(new Projector(kafka, topics, shards.background(), announcements, registry, config.projector(),
        crypto.opener())).skippingShardsDown(availability::isShardUp);
    // Index, then push: a device told of a message finds it listed and counted.
    projector.addCommitListener(new ConversationIndexer(shards.background(), index, redisHealth, kafka,
        topics.events().name(), projector::assignedPartitions));
    // Which devices hold a live push socket, on any instance: presence, push to devices and the
    // push publisher's routing read it.
    SocketRegistry sockets = new SocketRegistry(redis, config.presence().socketTtl());
    projector.addCommitListener(new PushPublisher(new ConversationQueries(shards.background()), redis, sockets, redisHealth));
    projector.start();
    if (!config.archive().interval().isZero()) {
      shards.background().all().forEach(shard -> own(new ArchiveSchedule(new MessageArchive(shard, config.archive().hotDays()),
          config.archive().interval())));
    }
    DeliveryProjector delivery = own(new DeliveryProjector(kafka, topics.telemetry(), config.delivery().groupId(),
        database, new DeliveryLedger(config.delivery().renderTarget(), shards.background()), config.projector(), registry));
    delivery.start();
    config.integrations().webhooks().ifPresent(webhooks -> own(Webhooks.start(webhooks, kafka, topics, database.jdbi(),
        config, registry)));
    Optional<VapidKeys> vapid = config.notifications().enabled() ? Optional.of(PushNotifications.vapid(config))
        : Optional.empty();
    phases.done("projectors");
    ReadReplicas readReplicas = own(ReadReplicas.open(config.postgres(), shards, registry));
    HealthProbes health = own(new HealthProbes(config, kafka, topics, redisHealth, sequencing, projector, delivery,
        byConversation, readReplicas.probe()));
    CommandPublisher publisher = own(new CommandPublisher(kafka, topics.commands(), config.http().commandLinger()))
        .sealingWith(sealing = crypto.sealing()).storingIn(availability::isUp);
    ReplyWaiter replies = own(ReplyWaiter.start(kafka, topics.replies().name(), topics.announcements().name(),
        config.sequencer().applicationId() + "-ingress"));
    FunctionCounter.builder("seqsync.replies.outcomes.heard", replies, ReplyWaiter::outcomesHeard)
        .description("outcomes of commands announced to this instance").register(registry);
    PushHub pushes = own(new PushHub(registry, PushHub.newInstanceId()).subscribe(redisEndpoint));
    replies.onAppended(outcome -> readReplicas.committed().committed(outcome.getConvId(), outcome.getSeq()));
    ConversationQueries conversations = new ConversationQueries(byConversation);
    MessageQueries messages = new MessageQueries(byConversation);
    SyncQueries sync = new SyncQueries(byConversation, config.fetch().syncPageSize(),
        config.fetch().syncScreenConversations(), config.fetch().syncScreenBytes());
    // Pages and handshakes read each shard's replicas when they have replayed what the request needs.
    ReplicaReads reads = readReplicas.reads(databases -> new SyncQueries(databases, config.fetch().syncPageSize(),
        config.fetch().syncScreenConversations(), config.fetch().syncScreenBytes()));
    IngressStores stores = new IngressStores(messages, conversations,
        new ConversationList(redis, new ConversationIndexRebuild(new IndexSourceQueries(byConversation), index),
            conversations, redisHealth),
        new ArchiveQueries(byConversation, config.archive().readBudget()),
        new DeliveryQueries(requests.jdbi(), config.delivery().renderTarget()), sync, shards.statementTimeouts(),
        new RevocationQueries(requests.jdbi()), new GroupQueries(byConversation),
        Optional.of(new RedisLimits(own(RedisClients.connect(redisEndpoint, config.limits().redisTimeout())))),
        new PresenceQueries(byConversation), new ServerRequestQueries(requests.jdbi()),
        endpoints.objectStore().map(url -> own(Uploads.connect(url, config.objectStore(),
            new AttachmentRules(config.sequencer().attachments()), servers::startObjectStore))),
        new PushStores(new PusherQueries(requests.jdbi()), new ListSettingsQueries(byConversation),
            vapid.map(VapidKeys::publicKey), config.notifications().pushersPerUser()), reads);
    vapid.ifPresent(keys -> own(PushNotifications.start(config, kafka, topics, shards.background(), sockets, keys, registry)));
    Liveness liveness = own(Liveness.start(config.presence(), sockets, redis, redisEndpoint, stores.presence(),
        new AccessControl(conversations, stores.messages()), pushes));
    OpsMonitor monitor = own(new OpsMonitor(kafka, topics, config.sequencer().applicationId(), byConversation,
        stores.delivery(), registry)).start();
    BearerTokens bearerTokens = new BearerTokens(tokens, config.auth().identityProvider().map(provider ->
        new IdentityProviderTokens(provider, config.integrations().serviceClaim(), config.integrations().serviceRole())));
    // The development sign-in only with the development secret (which start-up allows only fully embedded).
    Optional<DevSignIn> devSignIn = config.auth().developmentSecret()
        ? Optional.of(new DevSignIn(tokens, config.auth().demoTokenTtl())) : Optional.empty();
    ingress = own(new IngressApp(IngressSettings.from(config), new CommandChannels(publisher, replies, topics.telemetry()),
        stores, pushes, new Identity(bearerTokens, devSignIn), new Observability(registry, monitor, health.probes()), liveness));
    UserErasure erasure = new UserErasure(shards.background(), index,
        stores.uploads().<UserErasure.Objects>map(uploads -> uploads::eraseUser).orElse(UserErasure.NO_OBJECTS));
    ingress.erasure().eraseWith(erasure::erase);
    ingress.start();
    phases.done("ingress");
    joined(sequencing).awaitRunning();
    phases.done("sequencer");
    log.info("started as instance {} in {} ms ({})", config.instanceId().orElseThrow(), phases.totalMillis(), phases);
  }

  private static void registerShardGauges(ShardAvailability availability, PrometheusMeterRegistry registry) {
    for (int shard = 0; shard < availability.size(); shard++) {
      int probed = shard;
      Gauge.builder("seqsync.postgres.shard.up", availability, probes -> probes.isShardUp(probed) ? 1 : 0)
          .description("whether the shard's primary answered its latest probe (its conversations' commands are refused while 0)")
          .tag("shard", Integer.toString(probed)).register(registry);
    }
  }

  // Waits for a start still under way; one that failed left nothing to stop.
  private static void closeStarted(CompletableFuture<? extends AutoCloseable> starting) throws Exception {
    AutoCloseable started;
    try {
      started = starting.join();
    } catch (CompletionException | CancellationException failed) {
      return;
    }
    started.close();
  }

  private static <T> T joined(CompletableFuture<T> future) {
    try {
      return future.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException cause ? cause : e;
    }
  }

  public int httpPort() {
    return ingress.port();
  }

  public Tokens tokens() {
    return tokens;
  }

  /** How this app seals a command's content before producing it (none with {@code crypto.encrypt-content} off). */
  public CommandSealing sealing() {
    return sealing;
  }

  /** Where the servers answer (the configured ones, or the embedded ones this app started). */
  public Endpoints stack() {
    return endpoints;
  }

  private <T extends AutoCloseable> T own(T component) {
    started.push(component);
    return component;
  }

  @Override
  public void close() {
    while (!started.isEmpty()) {
      AutoCloseable component = started.pop();
      try {
        component.close();
      } catch (Exception e) {
        log.warn("error while stopping {}", component.getClass().getSimpleName(), e);
      }
    }
  }
}
