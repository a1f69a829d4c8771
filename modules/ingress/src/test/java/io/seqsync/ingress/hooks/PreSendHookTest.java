package io.seqsync.ingress.hooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seqsync.config.Integrations;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.Endpoint;
import io.seqsync.ingress.http.Json;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The pre-send hook against a real moderation server on loopback: it answers by the content it is
 * shown (allow, reject, rewrite, too slow, 500). The send behind the hook records the bodies it was
 * given and answers 200, as the real send would once Kafka has the command.
 */
class PreSendHookTest {
  private static final Duration BUDGET = Duration.ofMillis(300);
  private static final Caller ALICE = new Caller(1, "phone");

  private HttpServer moderation;
  private final List<JsonNode> asked = new CopyOnWriteArrayList<>();
  private final List<String> sent = new CopyOnWriteArrayList<>();
  private final Endpoint<Caller> send = (caller, request) -> {
    sent.add(Json.object(request.body()).get("content").asText());
    return CompletableFuture.completedFuture(Answer.ok(Map.of("sent", true)));
  };

  @BeforeEach
  void startModeration() throws IOException {
    moderation = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    moderation.setExecutor(Executors.newCachedThreadPool());
    moderation.createContext("/moderate", exchange -> {
      JsonNode call = Json.MAPPER.readTree(exchange.getRequestBody().readAllBytes());
      asked.add(call);
      String content = call.path("content").asText();
      String answer = switch (content) {
        case "spam" -> "{\"action\":\"reject\",\"reason\":\"no spam here\"}";
        case "darn" -> "{\"action\":\"rewrite\",\"content\":\"d**n\"}";
        case "slow" -> {
          sleep(BUDGET.multipliedBy(4));
          yield "{\"action\":\"allow\"}";
        }
        case "broken" -> null;
        default -> "{\"action\":\"allow\"}";
      };
      byte[] body = (answer == null ? "oops" : answer).getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(answer == null ? 500 : 200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    moderation.start();
  }

  @AfterEach
  void stopModeration() {
    moderation.stop(0);
  }

  @Test
  void allowsRejectsWithTheReasonAndRewrites() {
    try (PreSendHook hook = hook(false)) {
      Endpoint<Caller> guarded = hook.guard(send);

      assertThat(answer(guarded, "hello").status()).isEqualTo(200);
      assertThatThrownBy(() -> answer(guarded, "spam")).isInstanceOfSatisfying(ApiException.class, e -> {
        assertThat(e.status()).isEqualTo(403);
        assertThat(e.code()).isEqualTo("rejected");
        assertThat(e.getMessage()).isEqualTo("no spam here");
      });
      assertThat(answer(guarded, "darn").status()).isEqualTo(200);

      assertThat(sent).containsExactly("hello", "d**n");
      assertThat(asked).hasSize(3);
      JsonNode first = asked.get(0);
      assertThat(first.path("type").asText()).isEqualTo("message.pre-send");
      assertThat(first.path("convId").asText()).isEqualTo("d:1:2");
      assertThat(first.path("senderId").asText()).isEqualTo("1");
      assertThat(first.path("senderDevice").asText()).isEqualTo("phone");
      assertThat(first.path("messageType").asText()).isEqualTo("text");
    }
  }

  @Test
  void aSlowOrFailingHookFailsOpenWhenSetSo() {
    try (PreSendHook hook = hook(true)) {
      long began = System.nanoTime();
      assertThat(answer(hook.guard(send), "slow").status()).isEqualTo(200);
      assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(BUDGET.multipliedBy(3));
      assertThat(answer(hook.guard(send), "broken").status()).isEqualTo(200);
      assertThat(sent).containsExactly("slow", "broken");
    }
  }

  @Test
  void aSlowOrFailingHookFailsClosedWhenSetSo() {
    try (PreSendHook hook = hook(false)) {
      for (String content : List.of("slow", "broken")) {
        assertThatThrownBy(() -> answer(hook.guard(send), content)).isInstanceOfSatisfying(ApiException.class, e -> {
          assertThat(e.status()).isEqualTo(503);
          assertThat(e.code()).isEqualTo("moderation_unavailable");
        });
      }
      assertThat(sent).isEmpty();
    }
  }

  @Test
  void anInvalidSendIsRefusedBeforeTheHookIsAsked() {
    try (PreSendHook hook = hook(false)) {
      assertThatThrownBy(() -> hook.guard(send).answer(ALICE, new SendRequestOf("d:1:2", "{\"content\":\"x\"}")))
          .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(400));
      assertThat(asked).isEmpty();
    }
  }

  private PreSendHook hook(boolean failOpen) {
    URI url = URI.create("http://127.0.0.1:" + moderation.getAddress().getPort() + "/moderate");
    return new PreSendHook(new Integrations.PreSendHook(url, BUDGET, failOpen), 65536, new SimpleMeterRegistry());
  }

  private static Answer answer(Endpoint<Caller> endpoint, String content) {
    String body = "{\"clientMsgId\":\"c-" + content + "\",\"type\":\"text\",\"content\":\"" + content + "\"}";
    try {
      return endpoint.answer(ALICE, new SendRequestOf("d:1:2", body)).join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException cause ? cause : e;
    }
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A POST of a send to {@code convId} with {@code body}. */
  private record SendRequestOf(String convId, String json) implements ApiRequest {
    @Override
    public String method() {
      return "POST";
    }

    @Override
    public String path() {
      return "/v1/conversations/" + convId + "/messages";
    }

    @Override
    public String pathParam(String name) {
      return name.equals("convId") ? convId : null;
    }

    @Override
    public Map<String, List<String>> queryParams() {
      return Map.of();
    }

    @Override
    public String header(String name) {
      return null;
    }

    @Override
    public String cookie(String name) {
      return null;
    }

    @Override
    public byte[] body() {
      return json.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String scheme() {
      return "http";
    }
  }
}
