package io.seqsync.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The outbox against a real HTTP server that refuses, then accepts, then answers with a seq. */
class OutboxTest {
  @Test
  void sendsTheSameMessageAgainToTheNextInstanceUntilItIsAnswered200() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    List<String> bodies = new CopyOnWriteArrayList<>();
    List<Integer> ports = new CopyOnWriteArrayList<>();
    HttpServer first = server(calls, bodies, ports);
    HttpServer second = server(calls, bodies, ports);
    try (Outbox outbox = new Outbox(List.of(new ApiClient(first.getAddress().getPort(), "t"),
        new ApiClient(second.getAddress().getPort(), "t")), 10)) {
      Outbox.Delivery delivery = outbox.send("d:1:2", "c-1", "hello").get(10, TimeUnit.SECONDS);

      assertThat(delivery.seq()).isEqualTo(7);
      assertThat(delivery.attempts()).isEqualTo(3);
      assertThat(delivery.firstAttemptFailed()).isTrue();
      assertThat(delivery.accepted()).isLessThan(delivery.stored()); // the 202 came before the 200
      assertThat(outbox.failures()).isEqualTo(2);
      assertThat(bodies).hasSize(3).allSatisfy(body -> assertThat(body).contains("\"clientMsgId\":\"c-1\""));
      assertThat(ports).containsExactly(first.getAddress().getPort(), second.getAddress().getPort(),
          first.getAddress().getPort());
    } finally {
      first.stop(0);
      second.stop(0);
    }
  }

  /** 503, then 202, then 200 with seq 7, counted over both servers. */
  private static HttpServer server(AtomicInteger calls, List<String> bodies, List<Integer> ports) throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/v1/conversations/d:1:2/messages", exchange -> {
      bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      ports.add(server.getAddress().getPort());
      int call = calls.incrementAndGet();
      byte[] answer = (call == 3 ? "{\"message\":{\"seq\":7}}" : "{}").getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(call == 1 ? 503 : call == 2 ? 202 : 200, answer.length);
      exchange.getResponseBody().write(answer);
      exchange.close();
    });
    server.start();
    return server;
  }
}
