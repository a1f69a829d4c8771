package io.seqsync.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A client of the seqsync HTTP API for tests: real HTTP, JSON in and out. */
final class ApiClient {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String base;
  private final String token;

  ApiClient(int port, String token) {
    this.base = "http://127.0.0.1:" + port;
    this.token = token;
  }

  ApiClient as(String otherToken) {
    return new ApiClient(Integer.parseInt(base.substring(base.lastIndexOf(':') + 1)), otherToken);
  }

  Response get(String path) {
    return send(request(path).GET());
  }

  Response post(String path, String json) {
    return send(request(path).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  Response put(String path, String json) {
    return send(request(path).header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(json)));
  }

  Response delete(String path) {
    return send(request(path).DELETE());
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
    return token == null ? builder : builder.header("Authorization", "Bearer " + token);
  }

  private Response send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      String body = response.body();
      return new Response(response.statusCode(), body.isEmpty() ? JSON.nullNode() : JSON.readTree(body),
          response.headers().firstValue("Retry-After").orElse(null));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** {@code retryAfter}: the Retry-After header, or null. */
  record Response(int status, JsonNode body, String retryAfter) {}
}
