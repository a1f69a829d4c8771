package io.seqsync.ingress.push;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seqsync.config.RedisEndpoint;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.ops.Latencies;
import io.seqsync.redis.PushNotice;
import io.seqsync.redis.RedisSubscription;
import io.seqsync.redis.SocketRegistry;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.JedisPubSub;

/**
 * The push sockets of this instance, by user, fed from this instance's own Redis channel, to which
 * the projector sends only the notices of users whose sockets the registry places here (each
 * notice names its recipients). Its sockets' ids start with the instance's id
 * ({@link SocketRegistry#socketId}), which is how the registry places them. Frames are
 * rendered per connection (a device is not told what it did itself) and queued without blocking.
 * Thread-safe; closing stops the subscription and drops every socket.
 */
public final class PushHub implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PushHub.class);

  private final Map<Long, Set<PushConnection>> byUser = new ConcurrentHashMap<>();
  private final LongAdder connections = new LongAdder();
  private final LongAdder dropped = new LongAdder();
  private final LongAdder heard = new LongAdder();
  private final ExecutorService writer = Executors.newFixedThreadPool(2, runnable -> {
    Thread thread = new Thread(runnable, "push-writer");
    thread.setDaemon(true);
    return thread;
  });
  private final Timer latency;
  private final String instance;
  private volatile RedisSubscription subscription;

  /** A hub whose push latency goes to a registry of its own (tests). */
  public PushHub() {
    this(new SimpleMeterRegistry(), newInstanceId());
  }

  /**
   * A hub of the instance {@code instance} recording {@code seqsync.push.latency}: from a message's
   * creation (the sequencer's numbering) to its frame written to a device's socket, per pushed
   * message frame.
   */
  public PushHub(MeterRegistry registry, String instance) {
    this.latency = Latencies.timer(registry, "seqsync.push.latency",
        "from a message's numbering to its push frame written to a device's socket");
    this.instance = instance;
    FunctionCounter.builder("seqsync.push.notices.heard", heard, LongAdder::sum)
        .description("push notice lines this instance's channel brought (each names a user with a socket here)")
        .register(registry);
  }

  /** A fresh id for an app instance: its push channel's name, unique among the instances. */
  public static String newInstanceId() {
    return UUID.randomUUID().toString().replace("-", "").substring(0, 16);
  }

  /** The id of this instance, as its sockets' ids and its push channel carry it. */
  public String instance() {
    return instance;
  }

  /** Starts feeding the sockets from Redis; until then (in tests without Redis) nothing is pushed. */
  public PushHub subscribe(RedisEndpoint redis) {
    subscription = new RedisSubscription(redis, new JedisPubSub() {
      @Override
      public void onMessage(String channel, String message) {
        List<String> lines;
        try {
          lines = PushNotice.lines(message);
        } catch (RuntimeException e) {
          log.warn("ignoring a malformed push publication: {}", e.toString());
          return;
        }
        heard.add(lines.size());
        lines.forEach(PushHub.this::deliver);
      }
    }, false, PushNotice.channel(instance));
    return this;
  }

  /** True once notices reach this hub (those published before are missed). */
  public boolean isSubscribed() {
    RedisSubscription current = subscription;
    return current != null && current.isSubscribed();
  }

  PushConnection connect(String id, Caller caller, org.eclipse.jetty.websocket.api.Session session) {
    PushConnection connection = new PushConnection(SocketRegistry.socketId(instance, id), caller, session, writer,
        latency);
    byUser.computeIfAbsent(caller.userId(), user -> ConcurrentHashMap.newKeySet()).add(connection);
    connections.increment();
    return connection;
  }

  void disconnect(PushConnection connection) {
    byUser.computeIfPresent(connection.caller.userId(), (user, held) -> {
      if (held.remove(connection)) {
        connections.decrement();
      }
      return held.isEmpty() ? null : held;
    });
  }

  /** This instance's sockets of {@code userId}, none when it has none here. */
  Set<PushConnection> connectionsOf(long userId) {
    return byUser.getOrDefault(userId, Set.of());
  }

  /** Push sockets open on this instance. */
  public long connectionCount() {
    return connections.sum();
  }

  /** Sockets dropped because they could not keep up (their queue overflowed), since start. */
  public long droppedCount() {
    return dropped.sum();
  }

  // Decodes the notice only when a recipient has a socket here.
  private void deliver(String line) {
    try {
      PushNotice notice = null;
      for (long recipient : PushNotice.recipients(line)) {
        Set<PushConnection> held = byUser.get(recipient);
        if (held == null) {
          continue;
        }
        notice = notice == null ? PushNotice.decodeAddressed(line) : notice;
        for (PushConnection connection : held) {
          long createTime = notice.kind() == PushNotice.Kind.MESSAGE ? notice.message().createTime() : 0;
          PushFrames.render(notice, connection.caller).filter(frame -> !connection.offer(frame, createTime))
              .ifPresent(frame -> dropped.increment());
        }
      }
    } catch (RuntimeException e) {
      log.warn("ignoring undeliverable push notice: {}", e.toString());
    }
  }

  @Override
  public void close() {
    if (subscription != null) {
      subscription.close();
    }
    byUser.values().forEach(held -> held.forEach(PushConnection::drop));
    writer.shutdownNow();
  }
}
