package io.seqsync.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** A client of the seqsync HTTP API: real HTTP (java.net.http), JSON in and out, blocking or not. */
public final class ApiClient {
  public static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http;
  private final String base;
  private final String token;
  private final Duration timeout;

  /** {@code base} like {@code http://127.0.0.1:8080}; {@code token} null for none. */
  public ApiClient(HttpClient http, String base, String token, Duration timeout) {
    this.http = http;
    this.base = base;
    this.token = token;
    this.timeout = timeout;
  }

  public ApiClient(int port, String token) {
    this(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build(), "http://127.0.0.1:" + port, token,
        Duration.ofSeconds(30));
  }

  /** The same client (connections shared) with another token. */
  public ApiClient as(String otherToken) {
    return new ApiClient(http, base, otherToken, timeout);
  }

  public String base() {
    return base;
  }

  public Response get(String path) {
    return join(getAsync(path));
  }

  public Response post(String path, String json) {
    return join(postAsync(path, json));
  }

  public Response put(String path, String json) {
    return join(send(request(path).header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(json))));
  }

  public Response delete(String path) {
    return join(send(request(path).DELETE()));
  }

  public CompletableFuture<Response> getAsync(String path) {
    return send(request(path).GET());
  }

  public CompletableFuture<Response> postAsync(String path, String json) {
    return send(request(path).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  /** Sends a text message; the answer as it comes (200 with its seq, 202, or an error). */
  public CompletableFuture<Response> sendText(String convId, String clientMsgId, String text) {
    return postAsync("/v1/conversations/" + convId + "/messages", JSON.createObjectNode()
        .put("clientMsgId", clientMsgId).put("type", "text").put("content", text).toString());
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout);
    return token == null ? builder : builder.header("Authorization", "Bearer " + token);
  }

  private CompletableFuture<Response> send(HttpRequest.Builder request) {
    return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString()).thenApply(response -> {
      try {
        String body = response.body();
        return new Response(response.statusCode(), body.isEmpty() ? JSON.nullNode() : JSON.readTree(body),
            response.headers().firstValue("Retry-After").orElse(null));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  private static Response join(CompletableFuture<Response> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof IOException io ? new UncheckedIOException(io)
          : e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
    }
  }

  /** {@code retryAfter}: the Retry-After header, or null. */
  public record Response(int status, JsonNode body, String retryAfter) {
    /** The seq of a 200 to a send; -1 otherwise. */
    public long seq() {
      return status == 200 ? body.path("message").path("seq").asLong(-1) : -1;
    }
  }
}
