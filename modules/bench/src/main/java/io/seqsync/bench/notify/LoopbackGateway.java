package io.seqsync.bench.notify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Matrix push gateway on loopback that answers 200 at once and counts what it receives: per
 * message (event_id), the pushkeys told and the latest arrival; overall, the distinct (message,
 * pushkey) pairs and the requests repeating one.
 */
final class LoopbackGateway implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final byte[] OK = "{\"rejected\":[]}".getBytes();

  record PerMessage(Set<String> pushkeys, AtomicLong lastNanos) {}

  final Map<String, PerMessage> byMessage = new ConcurrentHashMap<>();
  /** Distinct (message, pushkey) pairs received. */
  final AtomicInteger total = new AtomicInteger();
  /** Requests for a pair received before. */
  final AtomicInteger repeats = new AtomicInteger();
  private final HttpServer server;
  private final ExecutorService threads = Executors.newFixedThreadPool(4);

  LoopbackGateway() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1024);
    server.setExecutor(threads);
    server.createContext("/", exchange -> {
      long now = System.nanoTime();
      JsonNode body = JSON.readTree(exchange.getRequestBody());
      String eventId = body.path("notification").path("event_id").asText("");
      String pushkey = body.path("notification").path("devices").path(0).path("pushkey").asText("");
      PerMessage message = byMessage.computeIfAbsent(eventId,
          id -> new PerMessage(ConcurrentHashMap.newKeySet(), new AtomicLong()));
      message.lastNanos().accumulateAndGet(now, Math::max);
      if (message.pushkeys().add(pushkey)) {
        total.incrementAndGet();
      } else {
        repeats.incrementAndGet();
      }
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, OK.length);
      exchange.getResponseBody().write(OK);
      exchange.close();
    });
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/_matrix/push/v1/notify";
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
