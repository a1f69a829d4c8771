package io.seqsync.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A real WebSocket client of {@code /v1/stream}: every frame received, parsed, in order. A text
 * frame that is not JSON arrives as {@code {"type":"not JSON","text":...}}, a binary one as {@code
 * {"type":"unexpected binary frame from the server"}}: neither is a frame the server may send.
 */
public final class StreamClient implements AutoCloseable {
  /** The close code when the connection failed rather than closed. */
  public static final int DROPPED = -1;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** How the server closed the socket. */
  public record Close(int code, String reason) {}

  private final BlockingQueue<JsonNode> frames = new LinkedBlockingQueue<>();
  private final CompletableFuture<Close> closed = new CompletableFuture<>();
  private final WebSocket socket;
  private volatile boolean pausing;
  private final Consumer<JsonNode> tap;

  private StreamClient(WebSocket.Builder builder, URI uri, Consumer<JsonNode> tap) {
    this.tap = tap;
    socket = builder.buildAsync(uri, new WebSocket.Listener() {
      private final StringBuilder partial = new StringBuilder();

      @Override
      public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
          received(parsed(partial.toString()));
          partial.setLength(0);
          if (pausing) { // read no further: the server's writes back up
            return null;
          }
        }
        webSocket.request(1);
        return null;
      }

      @Override
      public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
        received(JSON.createObjectNode().put("type", "unexpected binary frame from the server"));
        webSocket.request(1);
        return null;
      }

      @Override
      public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        closed.complete(new Close(statusCode, reason));
        return null;
      }

      @Override
      public void onError(WebSocket webSocket, Throwable error) {
        closed.complete(new Close(DROPPED, String.valueOf(error)));
      }
    }).join();
  }

  private static JsonNode parsed(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      return JSON.createObjectNode().put("type", "not JSON").put("text", text);
    }
  }

  private void received(JsonNode frame) {
    if (tap != null) {
      tap.accept(frame);
    } else {
      frames.add(frame);
    }
  }

  /** Connects with the token in the Authorization header. */
  public static StreamClient withHeader(int port, String token) {
    return new StreamClient(HttpClient.newHttpClient().newWebSocketBuilder()
        .header("Authorization", "Bearer " + token).connectTimeout(Duration.ofSeconds(5)),
        URI.create("ws://127.0.0.1:" + port + "/v1/stream"), null);
  }

  /** Connects with the token as ?access_token=. */
  public static StreamClient withQueryToken(int port, String token) {
    return tapped(HttpClient.newHttpClient(), port, token, null);
  }

  /**
   * Connects with the token as ?access_token= through {@code http}; every frame goes to {@code tap}
   * as it arrives (on the client's thread), none is queued for {@link #next}.
   */
  public static StreamClient tapped(HttpClient http, int port, String token, Consumer<JsonNode> tap) {
    return new StreamClient(http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5)),
        URI.create("ws://127.0.0.1:" + port + "/v1/stream?access_token=" + token), tap);
  }

  /** After the frame being read now (or the next one), reads nothing more: a device that stalled. */
  public void pause() {
    pausing = true;
  }

  public void send(String frame) {
    socket.sendText(frame, true).join();
  }

  /** Sends a frame; false when the socket is closed (or closing) already. */
  public boolean trySend(String frame) {
    return sent(() -> socket.sendText(frame, true));
  }

  /** Sends a binary frame; false when the socket is closed (or closing) already. */
  public boolean trySendBinary(byte[] bytes) {
    return sent(() -> socket.sendBinary(ByteBuffer.wrap(bytes), true));
  }

  private static boolean sent(Supplier<CompletableFuture<WebSocket>> send) {
    try {
      send.get().join();
      return true;
    } catch (CompletionException | IllegalStateException closed) {
      return false;
    }
  }

  /** The next frame, or an AssertionError after {@code timeout}. */
  public JsonNode next(Duration timeout) {
    try {
      JsonNode frame = frames.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (frame == null) {
        throw new AssertionError("no frame within " + timeout);
      }
      return frame;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * The next frame, or null once the server closed the socket and every frame before the close was
   * read; an AssertionError when neither comes within {@code timeout}.
   */
  public JsonNode nextOrClose(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (System.nanoTime() < deadline) {
        JsonNode frame = frames.poll(50, TimeUnit.MILLISECONDS);
        if (frame != null) {
          return frame;
        }
        if (closed.isDone() && frames.isEmpty()) {
          return null;
        }
      }
      throw new AssertionError("no frame and no close within " + timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The next frame that matches, skipping others. */
  public JsonNode next(Predicate<JsonNode> matching, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("no matching frame within " + timeout);
      }
      JsonNode frame = next(Duration.ofNanos(left));
      if (matching.test(frame)) {
        return frame;
      }
    }
  }

  /** How the server closed the socket, once it has; an AssertionError if not within {@code timeout}. */
  public Close closed(Duration timeout) {
    try {
      return closed.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("not closed within " + timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The code the server closed the socket with (-1: it failed), or an AssertionError after {@code timeout}. */
  public int closeCode(Duration timeout) {
    return closed(timeout).code();
  }

  public boolean isClosed() {
    return closed.isDone();
  }

  public static Predicate<JsonNode> ofType(String type) {
    return frame -> type.equals(frame.path("type").asText());
  }

  @Override
  public void close() {
    socket.abort();
  }
}
