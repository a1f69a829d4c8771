package io.seqsync.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seqsync.store.TestDatabases;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The outbox and the dispatcher against real PostgreSQL and a real HTTP receiver on loopback: order
 * per stream with retries, coalescing, the ledger against replays, and the dead letters.
 */
class DispatcherTest {
  @RegisterExtension
  static final TestDatabases databases = new TestDatabases("notifier");

  private static final DeliverySettings SETTINGS =
      new DeliverySettings(3, Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofSeconds(2), 16, Duration.ofMillis(20));

  private final List<String> received = new CopyOnWriteArrayList<>();
  private final Set<String> failOnce = ConcurrentHashMap.newKeySet();
  private final Set<String> failAlways = ConcurrentHashMap.newKeySet();
  private HttpServer server;
  private Jdbi jdbi;
  private Outbox outbox;

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      received.add(body);
      int status = failAlways.contains(body) || failOnce.remove(body) ? 500 : 204;
      exchange.sendResponseHeaders(status, -1);
      exchange.close();
    });
    server.start();
    jdbi = databases.database().jdbi();
    outbox = new Outbox(jdbi, Clock.systemUTC());
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void anOrderedStreamIsSentInSeqOrderAndWaitsForARetriedDelivery() {
    TestChannel channel = new TestChannel(DeliveryChannel.Ordering.ORDERED);
    failOnce.add("a/2");
    enqueue(channel, delivery("a", 1), delivery("a", 2), delivery("a", 3), delivery("b", 1));

    try (Dispatcher dispatcher = dispatcher(channel)) {
      dispatcher.start();
      await(() -> received.containsAll(List.of("a/3", "b/1")));
    }

    List<String> streamA = received.stream().filter(body -> body.startsWith("a/")).toList();
    assertThat(streamA).containsExactly("a/1", "a/2", "a/2", "a/3");
    assertThat(count("select count(*) from notifier_outbox")).isZero();
  }

  @Test
  void aBurstIsOneDeliveryOfItsLatestAndASettledSeqIsNeverPlannedAgain() {
    TestChannel channel = new TestChannel(DeliveryChannel.Ordering.coalescing(Duration.ofMillis(300)));
    enqueue(channel, delivery("c", 1), delivery("c", 2));
    enqueue(channel, delivery("c", 5), delivery("c", 4));

    try (Dispatcher dispatcher = dispatcher(channel)) {
      dispatcher.start();
      await(() -> received.contains("c/5"));
      enqueue(channel, delivery("c", 3), delivery("c", 5));
      LockSupport.parkNanos(Duration.ofMillis(600).toNanos());
    }

    assertThat(received).containsExactly("c/5");
    assertThat(count("select seq from notifier_settled where stream = 'c'")).isEqualTo(5);
  }

  @Test
  void aDeliveryFailingEveryTryIsDeadLetteredAfterTheLast() {
    TestChannel channel = new TestChannel(DeliveryChannel.Ordering.ORDERED);
    failAlways.add("d/1");
    enqueue(channel, delivery("d", 1), delivery("d", 2));

    try (Dispatcher dispatcher = dispatcher(channel)) {
      dispatcher.start();
      await(() -> received.contains("d/2"));
    }

    assertThat(received.stream().filter("d/1"::equals)).hasSize(SETTINGS.maxAttempts());
    assertThat(count("select attempts from notifier_dead_letters where stream = 'd' and seq = 1"))
        .isEqualTo(SETTINGS.maxAttempts());
    assertThat(channel.settled).containsExactly("d/1 GAVE_UP", "d/2 DELIVERED");
  }

  private Dispatcher dispatcher(TestChannel channel) {
    return new Dispatcher(channel, outbox, SETTINGS, "test-instance", HttpClient.newHttpClient(),
        new SimpleMeterRegistry());
  }

  private void enqueue(TestChannel channel, Delivery... deliveries) {
    jdbi.useTransaction(handle -> outbox.enqueue(handle, channel.name(), channel.ordering(), List.of(deliveries)));
  }

  private static Delivery delivery(String stream, long seq) {
    return new Delivery("receiver", stream, seq, (stream + "/" + seq).getBytes(StandardCharsets.UTF_8));
  }

  private long count(String sql) {
    return jdbi.withHandle(handle -> handle.createQuery(sql).mapTo(Long.class).one());
  }

  private static void await(BooleanSupplier condition) {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition within 20 s").isLessThan(deadline);
      LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
    }
  }

  /** Posts each payload as it is to the test's receiver. */
  private final class TestChannel implements DeliveryChannel {
    private final Ordering ordering;
    final List<String> settled = new CopyOnWriteArrayList<>();

    TestChannel(Ordering ordering) {
      this.ordering = ordering;
    }

    @Override
    public String name() {
      return "test";
    }

    @Override
    public Ordering ordering() {
      return ordering;
    }

    @Override
    public List<Delivery> plan(Handle handle, List<LoggedEvent> events) {
      return List.of();
    }

    @Override
    public Optional<HttpRequest> request(PendingDelivery delivery) {
      return Optional.of(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"))
          .POST(HttpRequest.BodyPublishers.ofByteArray(delivery.payload())).build());
    }

    @Override
    public void settled(PendingDelivery delivery, Verdict verdict) {
      settled.add(new String(delivery.payload(), StandardCharsets.UTF_8) + " " + verdict);
    }
  }
}
