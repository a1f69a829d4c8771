package io.seqsync.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.LimitsSettings;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.testkit.ApiClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** What the end-to-end tests share: the app on free ports, clients, sends and waiting for the projection. */
final class EndToEnd {
  /** How long an accepted command may take to show in the projection. */
  static final Duration APPLIED = Duration.ofSeconds(10);

  /** The rate and burst of every limit in these tests, unless a test sets its own. */
  static final int RAISED_LIMITS = 1_000_000;

  private EndToEnd() {}

  static SeqsyncApp start(Path dir) {
    return SeqsyncApp.start(config(dir));
  }

  /** The tests' settings: everything embedded, with its data in {@code dir}, on free ports. */
  static SeqsyncConfig config(Path dir) {
    return config(dir, Map.of());
  }

  /** The tests' settings with {@code overrides}. */
  static SeqsyncConfig config(Path dir, Map<String, String> overrides) {
    Map<String, String> settings = new HashMap<>(Map.of(
        "data-dir", dir.toString(),
        "kafka.embedded-port", "0",
        "postgres.embedded-port", "0",
        "redis.embedded-port", "0",
        "http.port", "0",
        "http.reply-budget", "10s",
        "kafka.partitions", "3",
        "sequencer.session-timeout", "6s",
        // Delivery figures as they are now, not as a minute ago: the tests wait for them to change.
        "delivery.figures-cache", "0s"));
    // The tests send, ack and connect far faster than people, from a few devices: the limits' own
    // tests set theirs (LimitsEndToEndTest).
    settings.putAll(LimitsSettings.raisedTo(RAISED_LIMITS));
    settings.putAll(overrides);
    return ConfigLoader.of(settings);
  }

  static ApiClient client(SeqsyncApp app, long userId, String deviceId) {
    return new ApiClient(app.httpPort(), token(app, userId, deviceId));
  }

  /** An operator (the ops routes and /ops/delivery). */
  static ApiClient operator(SeqsyncApp app) {
    return new ApiClient(app.httpPort(), app.tokens().mintOperator(Duration.ofHours(1)));
  }

  static String token(SeqsyncApp app, long userId, String deviceId) {
    return app.tokens().mint(userId, deviceId, Duration.ofHours(1));
  }

  /** Sends {@code count} text messages and returns them as stored (200 each). */
  static List<JsonNode> send(ApiClient client, String conv, int count) {
    List<JsonNode> sent = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      ApiClient.Response response = client.post("/v1/conversations/" + conv + "/messages",
          "{\"clientMsgId\":\"" + UUID.randomUUID() + "\",\"type\":\"text\",\"content\":\"m" + i + "\"}");
      assertThat(response.status()).as("send %d: %s", i, response.body()).isEqualTo(200);
      sent.add(response.body().get("message"));
    }
    return sent;
  }

  /** The activation of {@code conv} once it satisfies {@code applied}. */
  static JsonNode awaitActivation(ApiClient client, String conv, Predicate<JsonNode> applied) {
    return await(() -> ok(client.get("/v1/conversations/" + conv)), applied);
  }

  /** The caller's list entry of {@code conv} once its unread count is {@code unread}. */
  static JsonNode awaitUnread(ApiClient client, String conv, long unread) {
    return await(() -> entry(client, conv), e -> e != null && e.get("unread").asLong() == unread);
  }

  /** The caller's list entry of one conversation (null while it is not listed). */
  static JsonNode entry(ApiClient client, String conv) {
    for (JsonNode entry : ok(client.get("/v1/conversations?limit=100")).get("conversations")) {
      if (entry.get("convId").asText().equals(conv)) {
        return entry;
      }
    }
    return null;
  }

  /** The probe's answer once it satisfies {@code applied}; fails after {@link #APPLIED}. */
  static JsonNode await(Supplier<JsonNode> probe, Predicate<JsonNode> applied) {
    long deadline = System.nanoTime() + APPLIED.toNanos();
    JsonNode answer;
    do {
      answer = probe.get();
      if (applied.test(answer)) {
        return answer;
      }
      sleep(50);
    } while (System.nanoTime() < deadline);
    throw new AssertionError("not applied within " + APPLIED + ": " + answer);
  }

  static JsonNode ok(ApiClient.Response response) {
    assertThat(response.status()).as("%s", response.body()).isEqualTo(200);
    return response.body();
  }

  static void accepted(ApiClient.Response response) {
    assertThat(response.status()).as("%s", response.body()).isEqualTo(202);
  }

  /** The app's /metrics text (Prometheus). */
  static String metrics(SeqsyncApp app) {
    try {
      return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.httpPort()
          + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The value of the metric series {@code name} (with a label {@code label} when not empty); 0 when absent. */
  static double metric(SeqsyncApp app, String name, String label) {
    for (String line : metrics(app).split("\n")) {
      boolean named = line.startsWith(name + " ") || line.startsWith(name + "{");
      if (named && line.contains(label)) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return 0;
  }

  static List<Long> seqs(JsonNode page) {
    List<Long> seqs = new ArrayList<>();
    page.get("messages").forEach(message -> seqs.add(message.get("seq").asLong()));
    return seqs;
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
