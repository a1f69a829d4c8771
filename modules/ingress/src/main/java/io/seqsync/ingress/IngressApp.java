package io.seqsync.ingress;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.json.JavalinJackson;
import io.javalin.websocket.WsHandlerType;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.seqsync.ingress.api.AccessControl;
import io.seqsync.ingress.attachments.AttachmentEndpoints;
import io.seqsync.ingress.attachments.SendAttachments;
import io.seqsync.ingress.attachments.Uploads;
import io.seqsync.ingress.api.ArchiveEndpoint;
import io.seqsync.ingress.api.BlockEndpoints;
import io.seqsync.ingress.api.ConversationListEndpoint;
import io.seqsync.ingress.notify.PushEndpoints;
import io.seqsync.ingress.api.DraftWindows;
import io.seqsync.ingress.api.DeliveryEndpoints;
import io.seqsync.ingress.api.FetchGuard;
import io.seqsync.ingress.api.FetchService;
import io.seqsync.ingress.api.GroupChecks;
import io.seqsync.ingress.api.GroupEndpoints;
import io.seqsync.ingress.api.GroupRoleEndpoints;
import io.seqsync.ingress.api.MessageEndpoints;
import io.seqsync.ingress.api.ActionEndpoints;
import io.seqsync.ingress.api.PositionEndpoints;
import io.seqsync.ingress.api.ReceiptsEndpoint;
import io.seqsync.ingress.api.SyncDepth;
import io.seqsync.ingress.api.SyncEndpoint;
import io.seqsync.ingress.api.SyncService;
import io.seqsync.ingress.auth.Authentication;
import io.seqsync.ingress.auth.Revocations;
import io.seqsync.ingress.auth.SignOut;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.commands.CommandPublisher;
import io.seqsync.ingress.commands.CommandRoundTrip;
import io.seqsync.ingress.commands.ReplyWaiter;
import io.seqsync.ingress.health.HealthEndpoints;
import io.seqsync.ingress.hooks.PreSendHook;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.Endpoint;
import io.seqsync.ingress.http.ErrorHandling;
import io.seqsync.ingress.http.HttpMetrics;
import io.seqsync.ingress.http.JavalinRoutes;
import io.seqsync.ingress.http.JettyFastPath;
import io.seqsync.ingress.http.Json;
import io.seqsync.ingress.http.JsonErrorHandler;
import io.seqsync.ingress.http.Route;
import io.seqsync.ingress.limits.Limit;
import io.seqsync.ingress.limits.Limiter;
import io.seqsync.ingress.limits.SocketLimits;
import io.seqsync.ingress.ops.LiveFigures;
import io.seqsync.ingress.ops.MetricsEndpoint;
import io.seqsync.ingress.ops.OpsAccess;
import io.seqsync.ingress.ops.OpsDashboard;
import io.seqsync.ingress.push.Liveness;
import io.seqsync.ingress.push.PushHub;
import io.seqsync.ingress.push.ComeBack;
import io.seqsync.ingress.push.StreamEndpoint;
import io.seqsync.ingress.server.IdempotencyKeys;
import io.seqsync.ingress.server.ServerApi;
import io.seqsync.ingress.server.ServerSignOut;
import io.seqsync.ingress.server.UserEraseEndpoint;
import io.seqsync.ingress.web.DevSignIn;
import io.seqsync.ingress.web.WebClientFiles;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.MessageQueries;
import io.seqsync.store.StatementTimeouts;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP ingress (API.md): every endpoint a {@link Route} (who may call, and an {@link Endpoint}
 * from caller and request to an answer), served by Javalin, with the pages of messages and the
 * sends served by a Jetty handler in front of it ({@link JettyFastPath}); both are thin adapters
 * over the same routes. Every {@code /v1} route needs a bearer token; {@code /health} (and
 * {@code /health/live}, {@code /health/ready}) and {@code /metrics} do not, nor does the web chat
 * client at {@code /} ({@link WebClientFiles}); the ops dashboard ({@code /ops/}, {@code /ops/api/*})
 * and {@code /ops/delivery} need an operator's token; the server API ({@code /v1/server/}, {@link ServerApi})
 * a service's token, which no other route takes. Takes its dependencies ready-made and owns none of them but its HTTP
 * server and worker threads: the caller closes the publisher, the waiter, the database and the
 * registry after {@link #close()}.
 */
public final class IngressApp implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(IngressApp.class);
  private static final int WORKERS = 8;
  // The listen backlog. The JVM's default, 50, overflowed when many clients connected at once (the
  // send benchmark growing its pool): each dropped SYN cost its client a 1 s retransmission, sends
  // answered a second late. The kernel caps it at net.core.somaxconn.
  private static final int ACCEPT_QUEUE = 1024;
  private static final String DEFLATE = "permessage-deflate";
  private static final Set<HandlerType> ENDPOINT_METHODS =
      Set.of(HandlerType.GET, HandlerType.POST, HandlerType.PUT, HandlerType.PATCH, HandlerType.DELETE);
  // Selector threads, each reading and parsing its connections' requests (and serving the sends of
  // direct conversations, see JettyFastPath): Jetty's default, half the cores up to four, but at
  // least two, so that reading requests is never down to one thread.
  private static final int SELECTORS = Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors() / 2));

  private final IngressSettings settings;
  // How soon a sign-out on another instance is in force here.
  private static final Duration REVOCATION_POLL = Duration.ofMillis(500);

  private final ExecutorService workers;
  private final Revocations revocations;
  private final UserEraseEndpoint erasure;
  private final StreamEndpoint stream;
  private final HealthEndpoints health;
  private final SocketLimits socketLimits;
  private final DraftWindows drafts;
  private final Optional<PreSendHook> preSend;
  private final Javalin javalin;
  // "METHOD path" of every endpoint, as API.md's table writes them; the messages route is not Javalin's.
  private final List<String> routes = new CopyOnWriteArrayList<>(
      List.of("GET " + MessageEndpoints.MESSAGES, "POST " + MessageEndpoints.MESSAGES));

  public IngressApp(IngressSettings settings, CommandChannels commands, IngressStores stores, PushHub pushes,
      Identity identity, Observability observability) {
    this(settings, commands, stores, pushes, identity, observability, Liveness.off());
  }

  /** With typing and presence ({@code liveness}, which the caller closes). */
  public IngressApp(IngressSettings settings, CommandChannels commands, IngressStores stores, PushHub pushes,
      Identity identity, Observability observability, Liveness liveness) {
    this.settings = settings;
    PrometheusMeterRegistry registry = observability.registry();
    CommandPublisher publisher = commands.publisher();
    ReplyWaiter replies = commands.replies();
    MessageQueries messages = stores.messages();
    ConversationQueries conversations = stores.conversations();
    this.workers = Executors.newFixedThreadPool(WORKERS, daemonThreads("ingress-worker-"));
    AccessControl access = new AccessControl(conversations, messages);
    CommandRoundTrip roundTrip =
        new CommandRoundTrip(publisher, replies, messages, settings.replyBudget(), workers, registry);
    FetchGuard fetchGuard = new FetchGuard(settings.fetch(), registry);
    MessageEndpoints conversation = new MessageEndpoints(settings.maxContentBytes(), access, roundTrip, publisher,
        fetchGuard, new FetchService(stores.reads().pages(), conversations, new SyncDepth(registry, System::nanoTime)),
        new SendAttachments(stores.uploads()));
    AttachmentEndpoints attachments = new AttachmentEndpoints(stores.uploads(), access, messages);
    ActionEndpoints actions = new ActionEndpoints(settings.maxContentBytes(), settings.editWindow(), access, messages,
        roundTrip, Clock.systemUTC());
    PositionEndpoints positions =
        new PositionEndpoints(settings.maxContentBytes(), access, publisher, conversations, stores.groups());
    Limiter limiter = new Limiter(settings.limits(), stores.limits(), registry,
        () -> TimeUnit.NANOSECONDS.toMicros(System.nanoTime()));
    this.socketLimits = new SocketLimits(limiter, settings.limits().socketsPerUser());
    this.drafts = new DraftWindows(positions, settings.limits().draftWindow(), registry);
    GroupChecks groupChecks = new GroupChecks(settings.groups(), access, stores.groups(), roundTrip);
    GroupEndpoints groups = new GroupEndpoints(settings.maxGroupMembers(), groupChecks, conversations, roundTrip);
    GroupRoleEndpoints groupRoles = new GroupRoleEndpoints(groupChecks, conversations);
    BlockEndpoints blocks = new BlockEndpoints(stores.groups(), roundTrip);
    ConversationListEndpoint conversationList =
        new ConversationListEndpoint(stores.list(), stores.push().listSettings());
    PushEndpoints push = new PushEndpoints(stores.push(), access, roundTrip);
    SyncService syncs = new SyncService(stores.reads().handshakes());
    SyncEndpoint handshake = new SyncEndpoint(syncs);
    this.health = new HealthEndpoints(publisher, replies, conversations, observability.healthProbes(), workers);
    MetricsEndpoint metricsEndpoint = new MetricsEndpoint(registry);
    DeliveryEndpoints delivery =
        new DeliveryEndpoints(access, publisher, commands.telemetry(), stores.delivery(), settings.deliveryCache(),
            Clock.systemUTC());
    ArchiveEndpoint archive = new ArchiveEndpoint(access, stores.archive());
    WebClientFiles webClient = new WebClientFiles(stores.uploads().map(Uploads::origin));
    this.revocations = new Revocations(stores.revocations(), REVOCATION_POLL);
    this.erasure = new UserEraseEndpoint(revocations, Clock.systemUTC());
    Authentication authentication = new Authentication(identity.tokens(), revocations);
    SignOut signOut = new SignOut(revocations, Clock.systemUTC());
    OpsAccess opsAccess = new OpsAccess(identity.tokens());
    OpsDashboard dashboard =
        new OpsDashboard(new LiveFigures(registry, observability.monitor()), stores.delivery(), settings.deliveryCache(),
            Clock.systemUTC());
    HttpMetrics metrics = new HttpMetrics(registry);
    ServerApi serverApi = new ServerApi(identity.tokens(), new IdempotencyKeys(stores.serverRequests(), workers), limiter,
        new ServerApi.UserEndpoints(conversation::send, groups::create, groups::changeMembers, groupRoles::role,
            groupRoles::settings, Endpoint.now(conversationList::list)),
        new ServerSignOut(revocations, Clock.systemUTC()));
    // The routes that write, each with the limit it draws from (docs/api.md, "Limits").
    BiFunction<Limit, Endpoint<Caller>, Route<Caller>> limited =
        (limit, endpoint) -> Route.of(authentication, limiter.guard(limit, endpoint));
    this.stream = new StreamEndpoint(authentication, access, publisher, syncs, pushes, fetchGuard, limiter, socketLimits,
        revocations, liveness, new ComeBack(settings.fetch().syncReconnectRate()));
    ReceiptsEndpoint receipts = new ReceiptsEndpoint(access, stores.presence());
    this.preSend = settings.integrations().preSend()
        .map(hook -> new PreSendHook(hook, settings.maxContentBytes(), registry));
    Endpoint<Caller> userSend = preSend.<Endpoint<Caller>>map(hook -> hook.guard(conversation::send))
        .orElse(conversation::send);
    JettyFastPath fastPath = new JettyFastPath(MessageEndpoints.MESSAGES,
        Route.of(authentication, conversation::page), limited.apply(Limit.SEND, userSend),
        // A limit kept in Redis is a round trip, a pre-send hook another: not on the selector thread.
        convId -> preSend.isEmpty() && !limiter.waitsForRedis() && conversation.sendsWithoutBlocking(convId),
        Math.toIntExact(settings.maxRequestBytes()), metrics);
    registry.gauge("seqsync.ingress.pending.replies", replies, ReplyWaiter::pendingCount);
    registry.gauge("seqsync.push.connections", pushes, PushHub::connectionCount);
    FunctionCounter.builder("seqsync.push.dropped", pushes, PushHub::droppedCount)
        .description("push sockets dropped because they could not keep up").register(registry);
    FunctionCounter.builder("seqsync.postgres.statement.timeouts", stores.statementTimeouts(), StatementTimeouts::count)
        .description("user-driven statements PostgreSQL cancelled at postgres.statement-timeout (answered 503)")
        .register(registry);

    this.javalin = Javalin.create(config -> {
      config.startup.showJavalinBanner = false;
      config.startup.showOldJavalinVersionWarning = false;
      config.jsonMapper(new JavalinJackson(Json.MAPPER, false));
      config.http.maxRequestSize = settings.maxRequestBytes();
      config.jetty.modifyServer(server -> {
        server.setErrorHandler(new JsonErrorHandler());
        // In front of Javalin, which serves whatever the fast path passes on.
        server.setHandler(fastPath);
      });
      config.jetty.addConnector((server, http) -> {
        ServerConnector connector = new ServerConnector(server, -1, SELECTORS, new HttpConnectionFactory(http));
        connector.setHost(settings.host());
        connector.setPort(settings.port());
        connector.setAcceptQueueSize(ACCEPT_QUEUE);
        return connector;
      });
      // Jetty caches header values per connection and clears the whole cache when it is full: a
      // connection carrying many users' tokens (a proxy's; the fetch benchmark's) cleared it every
      // few requests, 10 % of the server threads' samples (JFR). Without it every header is parsed anew.
      config.jetty.modifyHttpConfiguration(http -> http.setHeaderCacheSize(0));
      if (!settings.streamCompression()) {
        // A socket with permessage-deflate held 130-160 KB more in the app (~230 KB more in a Node
        // client): 10,000 sockets, over a gigabyte (docs/benchmarks.md, "Push socket memory").
        config.jetty.modifyWebSocketServletFactory(factory -> factory.getAvailableExtensionNames().remove(DEFLATE));
      }
      config.requestLogger.http(metrics::record);
      config.events.handlerAdded(handler -> {
        if (ENDPOINT_METHODS.contains(handler.getHttpMethod())) {
          routes.add(handler.getHttpMethod().name() + " " + handler.getPath());
        }
      });
      config.events.wsHandlerAdded(handler -> {
        if (handler.getHandlerType() == WsHandlerType.WEBSOCKET) {
          routes.add("GET " + handler.getPath());
        }
      });
      ErrorHandling.install(config.routes);
      // Every /v1 path, served or not, answers 401 without a valid token first (a route checks it
      // again, answered from memory: VerifiedTokens).
      config.routes.before("/v1/*", ctx -> {
        // the server API's routes check service tokens
        if (!ctx.path().startsWith(ServerApi.PREFIX) && !UserEraseEndpoint.matches(ctx.path())) {
          checkToken(authentication, ctx);
        }
      });
      // A socket over the user's limits is refused before its upgrade: the cheapest refusal there is.
      config.routes.wsBeforeUpgrade(Authentication.STREAM_PATH,
          ctx -> stream.admitUpgrade(checkToken(authentication, ctx)));

      JavalinRoutes api = new JavalinRoutes(config.routes);
      // GET and POST /v1/conversations/{convId}/messages: the fast path, in front of these routes.
      api.post("/v1/conversations/{convId}/messages/{seq}/recall", limited.apply(Limit.SEND, conversation::recall));
      api.post("/v1/conversations/{convId}/messages/{seq}/edit", limited.apply(Limit.SEND, actions::edit));
      api.put("/v1/conversations/{convId}/messages/{seq}/reactions/{emoji}", limited.apply(Limit.SEND, actions::react));
      api.delete("/v1/conversations/{convId}/messages/{seq}/reactions/{emoji}", limited.apply(Limit.SEND, actions::unreact));
      // Attachments (docs/api.md, "Attachments"): an upload draws on the send limit, as its send will.
      api.post("/v1/uploads", limited.apply(Limit.SEND, now(attachments::upload)));
      api.get("/v1/uploads", Route.of(authentication, now(attachments::limits)));
      api.get("/v1/conversations/{convId}/messages/{seq}/attachment",
          Route.of(authentication, fetchGuard.firstScreen(now(attachments::download))));
      api.get("/v1/conversations", Route.of(authentication, fetchGuard.firstScreen(now(conversationList::list))));
      api.get("/v1/conversations/{convId}", Route.of(authentication, fetchGuard.firstScreen(now(positions::activation))));
      api.put("/v1/conversations/{convId}/draft", limited.apply(Limit.DRAFT, drafts::draft));
      api.post("/v1/acks", limited.apply(Limit.POSITION, positions::acks));
      api.post("/v1/reads", limited.apply(Limit.POSITION, positions::read));
      api.post("/v1/sync", Route.of(authentication, fetchGuard.firstScreen(now(handshake::sync))));
      api.post("/v1/groups", limited.apply(Limit.GROUP, groups::create));
      api.post("/v1/conversations/{convId}/members", limited.apply(Limit.GROUP, groups::changeMembers));
      api.post("/v1/conversations/{convId}/leave", limited.apply(Limit.GROUP, groups::leave));
      api.put("/v1/conversations/{convId}/roles/{userId}", limited.apply(Limit.GROUP, groupRoles::role));
      api.put("/v1/conversations/{convId}/settings", limited.apply(Limit.GROUP, groupRoles::settings));
      api.get("/v1/blocks", Route.of(authentication, now(blocks::list)));
      api.put("/v1/conversations/{convId}/list-settings", limited.apply(Limit.GROUP, push::listSettings));
      api.post("/v1/devices/{device}/pushers", limited.apply(Limit.GROUP, now(push::add)));
      api.get("/v1/devices/{device}/pushers", Route.of(authentication, now(push::list)));
      api.delete("/v1/devices/{device}/pushers/{pusherId}", limited.apply(Limit.GROUP, now(push::delete)));
      api.get("/v1/push/vapid", Route.of(authentication, now(push::vapid)));
      api.put("/v1/blocks/{userId}", limited.apply(Limit.GROUP, blocks::block));
      api.delete("/v1/blocks/{userId}", limited.apply(Limit.GROUP, blocks::unblock));
      api.get("/v1/archive/messages", Route.of(authentication, fetchGuard.paging(now(archive::messages))));
      api.post("/v1/telemetry/rendered", limited.apply(Limit.TELEMETRY, delivery::rendered));
      api.post("/v1/telemetry/failures", limited.apply(Limit.TELEMETRY, delivery::failures));
      api.post("/v1/sign-out", Route.of(authentication, now(signOut::signOut)));
      config.routes.ws(Authentication.STREAM_PATH, stream::configure);
      api.get("/v1/presence", Route.of(authentication, now(liveness::read)));
      api.get("/v1/presence/settings", Route.of(authentication, now(liveness::settings)));
      api.put("/v1/presence/settings", limited.apply(Limit.GROUP, now(liveness::changeSettings)));
      api.get("/v1/conversations/{convId}/receipts", Route.of(authentication, fetchGuard.firstScreen(now(receipts::receipts))));
      serverApi.install(api);
      serverApi.installErasure(api, erasure);
      api.get("/health", Route.open(health::basic));
      api.get("/health/live", Route.open(health::live));
      api.get("/health/ready", Route.open(health::ready));
      api.get("/metrics", Route.open(Endpoint.now(metricsEndpoint::metrics)));
      api.get("/ops/delivery", Route.of(opsAccess, OpsAccess.api(Endpoint.now(delivery::figures))));
      // The ops dashboard, operators only (else the page is the sign-in page); its scripts and
      // styles hold no data and serve the sign-in page too.
      api.get("/ops/", Route.open(opsAccess.page(Endpoint.now(dashboard::page))));
      api.get("/ops/assets/{file}", Route.open(Endpoint.now(dashboard::asset)));
      api.post("/ops/session", Route.open(Endpoint.now(opsAccess::signIn)));
      api.delete("/ops/session", Route.open(Endpoint.now(opsAccess::signOut)));
      api.get("/ops/api/live", Route.of(opsAccess, OpsAccess.api(Endpoint.now(dashboard::live))));
      api.get("/ops/api/delivery", Route.of(opsAccess, OpsAccess.api(Endpoint.now(dashboard::deliveryDays))));
      api.get("/ops/api/delivery/cases", Route.of(opsAccess, OpsAccess.api(Endpoint.now(dashboard::cases))));
      api.get(WebClientFiles.INDEX, Route.open(Endpoint.now(webClient::index)));
      api.get(WebClientFiles.FILES, Route.open(Endpoint.now(webClient::file)));
      api.get(WebClientFiles.LIBRARY, Route.open(Endpoint.now(webClient::library)));
      identity.devSignIn().ifPresent(signIn -> {
        api.get(DevSignIn.PATH, Route.open(Endpoint.now(signIn::available)));
        api.post(DevSignIn.PATH, Route.open(Endpoint.now(signIn::signIn)));
      });
    });
  }

  private static Caller checkToken(Authentication authentication, Context ctx) {
    String queryToken = ctx.path().equals(Authentication.STREAM_PATH) ? ctx.queryParam("access_token") : null;
    return authentication.verify(ctx.header("Authorization"), queryToken);
  }

  // A caller's endpoint that answers at once (typed here, where the lanes wrap it).
  private static Endpoint<Caller> now(BiFunction<Caller, ApiRequest, Answer> endpoint) {
    return Endpoint.now(endpoint);
  }

  /** Binds {@code http.host}:{@code http.port} (port 0: any free one) and serves. */
  /** The erasure route's endpoint: where its erasures go is set by the app (docs/design.md, "Erasure"). */
  public UserEraseEndpoint erasure() {
    return erasure;
  }

  public IngressApp start() {
    revocations.start();
    javalin.start();
    log.info("HTTP ingress listening on {}:{}", settings.host(), port());
    return this;
  }

  /** The port it listens on (the actual one when configured with 0). */
  public int port() {
    return javalin.port();
  }

  /** Every endpoint it serves, as {@code "METHOD path"} (the test holding openapi/seqsync.yaml to it reads them). */
  List<String> routes() {
    return List.copyOf(routes);
  }

  /** Stops serving; requests in flight are answered or cut. */
  @Override
  public void close() {
    stream.restarting(); // each socket told when to come back, before the server goes
    javalin.stop();
    stream.close();
    revocations.close();
    socketLimits.close();
    drafts.close();
    preSend.ifPresent(PreSendHook::close);
    health.close();
    workers.shutdown();
    try {
      workers.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
