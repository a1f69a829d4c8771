package io.seqsync.ingress;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A push-stream client for tests: sends frames, collects the server's text frames and its close code. */
final class WsProbe implements AutoCloseable {
  /** The close code when the connection failed rather than closed. */
  static final int DROPPED = -1;
  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  private static final Duration WAIT = Duration.ofSeconds(20);

  private final BlockingQueue<JsonNode> frames = new LinkedBlockingQueue<>();
  private final CompletableFuture<Integer> closeCode = new CompletableFuture<>();
  private final WebSocket socket;

  WsProbe(int port, String token) {
    socket = CLIENT.newWebSocketBuilder().header("Authorization", "Bearer " + token)
        .buildAsync(URI.create("ws://127.0.0.1:" + port + "/v1/stream"), new Listener()).join();
  }

  /** Sends a text frame; false when the socket is closed (or closing) already. */
  boolean sendText(String text) {
    return completed(socket.sendText(text, true));
  }

  boolean sendBinary(byte[] bytes) {
    return completed(socket.sendBinary(ByteBuffer.wrap(bytes), true));
  }

  /** The next frame from the server, or null once the socket is closed and nothing is left. */
  JsonNode next() {
    try {
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (System.nanoTime() < deadline) {
        JsonNode frame = frames.poll(50, TimeUnit.MILLISECONDS);
        if (frame != null) {
          return frame;
        }
        if (closeCode.isDone() && frames.isEmpty()) {
          return null;
        }
      }
      throw new AssertionError("no frame and no close within " + WAIT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The close code the server sent, if it closed the socket. */
  Integer closeCode() {
    return closeCode.getNow(null);
  }

  private static boolean completed(CompletableFuture<WebSocket> send) {
    try {
      send.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      return true;
    } catch (java.util.concurrent.ExecutionException closed) {
      return false;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    if (!socket.isOutputClosed()) {
      socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").exceptionally(error -> null);
    }
    socket.abort();
  }

  private final class Listener implements WebSocket.Listener {
    private final StringBuilder partial = new StringBuilder();

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        try {
          frames.add(Http.JSON.readTree(partial.toString()));
        } catch (IOException e) {
          frames.add(Http.JSON.createObjectNode().put("type", "not JSON").put("text", partial.toString()));
        }
        partial.setLength(0);
      }
      webSocket.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
      frames.add(Http.JSON.createObjectNode().put("type", "unexpected binary frame from the server"));
      webSocket.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
      closeCode.complete(statusCode);
      return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
      closeCode.complete(DROPPED);
    }
  }
}
