package io.seqsync.bench.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The benchmark's lean client against the JDK's own HTTP server: sized and chunked answers, many at once. */
class RawHttpClientTest {
  private HttpServer server;

  @BeforeEach
  void startServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(Executors.newFixedThreadPool(4));
    // Answers 201 with "{path} {body}", sized or chunked as the path asks.
    server.createContext("/", exchange -> {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      byte[] answer = (exchange.getRequestURI().getPath() + " " + body).getBytes(StandardCharsets.UTF_8);
      boolean chunked = exchange.getRequestURI().getPath().startsWith("/chunked");
      exchange.sendResponseHeaders(201, chunked ? 0 : answer.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(answer);
      }
    });
    server.start();
  }

  @AfterEach
  void stopServer() {
    server.stop(0);
  }

  @Test
  void answersEveryRequestWithItsOwnStatusAndBodyOverReusedConnections() throws Exception {
    try (RawHttpClient client = new RawHttpClient(server.getAddress().getPort(), TimeUnit.SECONDS.toNanos(10))) {
      for (int round = 0; round < 3; round++) {
        List<CompletableFuture<RawHttpClient.Response>> answers = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
          String path = (i % 2 == 0 ? "/sized/" : "/chunked/") + i;
          answers.add(client.send(RawHttpClient.post(path, "Bearer t", "{\"n\":" + i + "}")));
        }
        for (int i = 0; i < 100; i++) {
          RawHttpClient.Response response = answers.get(i).get(10, TimeUnit.SECONDS);
          assertThat(response.status()).isEqualTo(201);
          assertThat(new String(response.body(), StandardCharsets.UTF_8))
              .isEqualTo((i % 2 == 0 ? "/sized/" : "/chunked/") + i + " {\"n\":" + i + "}");
        }
      }
    }
  }

  @Test
  void aServerThatIsNotThereFailsTheRequestAndNotTheClient() throws Exception {
    int port = server.getAddress().getPort();
    server.stop(0);
    try (RawHttpClient client = new RawHttpClient(port, TimeUnit.SECONDS.toNanos(5))) {
      CompletableFuture<RawHttpClient.Response> answer = client.send(RawHttpClient.post("/x", "Bearer t", "{}"));
      assertThat(answer).failsWithin(10, TimeUnit.SECONDS);
    }
  }
}
