package io.seqsync.bench.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seqsync.bench.BenchSupport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The busy conversation's receiver: a {@code /v1/stream} WebSocket of user 2 that records when each
 * push of that conversation arrives (ms since the run began). When its socket drops (its instance
 * killed) it connects to the next instance every half second, as a client would.
 */
final class PushWatch implements WebSocket.Listener, AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<String> apps;
  private final String token;
  private final LongSupplier clock;
  private final HttpClient client = HttpClient.newBuilder()
      .executor(Executors.newFixedThreadPool(2, BenchSupport.daemonThreads("chaos-ws-"))).build();
  private final ExecutorService connector = Executors.newSingleThreadExecutor(BenchSupport.daemonThreads("chaos-connect-"));
  private final ConcurrentLinkedQueue<Long> pushes = new ConcurrentLinkedQueue<>();
  private final StringBuilder partial = new StringBuilder();
  private volatile boolean closed;
  private volatile int app;

  private PushWatch(List<String> apps, String token, LongSupplier clock, int firstApp) {
    this.apps = apps;
    this.token = token;
    this.clock = clock;
    this.app = firstApp;
  }

  static PushWatch connect(List<String> apps, String token, LongSupplier clock, int firstApp) {
    PushWatch watch = new PushWatch(apps, token, clock, firstApp);
    watch.connector.execute(watch::open);
    return watch;
  }

  /** When each push of the busy conversation arrived. */
  List<Long> pushes() {
    return List.copyOf(pushes);
  }

  private void open() {
    while (!closed) {
      String base = apps.get(app).replaceFirst("^http", "ws");
      try {
        client.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(3))
            .buildAsync(URI.create(base + "/v1/stream?access_token=" + token), this).get(10, TimeUnit.SECONDS);
        return;
      } catch (Exception e) {
        app = (app + 1) % apps.size();
        sleep(500);
      }
    }
  }

  @Override
  public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
    partial.append(data);
    if (last) {
      try {
        JsonNode frame = JSON.readTree(partial.toString());
        if ("message".equals(frame.path("type").asText())
            && SteadySender.busyConversation().equals(frame.path("message").path("convId").asText())) {
          pushes.add(clock.getAsLong());
        }
      } catch (java.io.IOException e) {
        // not a frame of the API
      }
      partial.setLength(0);
    }
    socket.request(1);
    return null;
  }

  @Override
  public CompletionStage<?> onClose(WebSocket socket, int status, String reason) {
    reconnect();
    return null;
  }

  @Override
  public void onError(WebSocket socket, Throwable error) {
    reconnect();
  }

  private void reconnect() {
    if (!closed) {
      app = (app + 1) % apps.size();
      connector.execute(() -> {
        sleep(500);
        open();
      });
    }
  }

  @Override
  public void close() {
    closed = true;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
