package io.seqsync.ingress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** A real HTTP client for the ingress under test, answering parsed JSON. */
public final class Http {
  public static final ObjectMapper JSON = new ObjectMapper();

  record Response(int status, String body, HttpHeaders headers) {
    JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new UncheckedIOException("not JSON (" + status + "): " + body, e);
      }
    }

    /** The error code of an error answer. */
    String errorCode() {
      return json().path("error").path("code").asText(null);
    }
  }

  private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String base;

  Http(int port) {
    this.base = "http://127.0.0.1:" + port;
  }

  Response get(String path, String token) {
    return send(builder(path, token).GET().build());
  }

  Response post(String path, String token, String body) {
    return send(builder(path, token).POST(HttpRequest.BodyPublishers.ofString(body))
        .header("Content-Type", "application/json").build());
  }

  Response put(String path, String token, String body) {
    return send(builder(path, token).PUT(HttpRequest.BodyPublishers.ofString(body))
        .header("Content-Type", "application/json").build());
  }

  CompletableFuture<Response> postAsync(String path, String token, String body) {
    return client.sendAsync(builder(path, token).POST(HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString())
        .thenApply(response -> new Response(response.statusCode(), response.body(), response.headers()));
  }

  Response send(HttpRequest request) {
    try {
      HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
      return new Response(response.statusCode(), response.body(), response.headers());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  HttpRequest.Builder builder(String path, String token) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
    if (token != null) {
      builder.header("Authorization", "Bearer " + token);
    }
    return builder;
  }
}
