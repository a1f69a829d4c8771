package io.seqsync.bench.chaos;

import io.seqsync.bench.BenchSupport;
import io.seqsync.testkit.StreamClient;
import java.net.http.HttpClient;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The busy conversation's receiver: a {@code /v1/stream} WebSocket of user 2 that records when each
 * push of that conversation arrives (nanoTime). When its socket drops (its instance killed) it
 * connects to the next instance half a second later, as a client would.
 */
final class PushWatch implements AutoCloseable {
  private final ConcurrentLinkedQueue<Long> pushes = new ConcurrentLinkedQueue<>();
  private final Thread watcher;
  private volatile boolean closed;

  PushWatch(List<Integer> ports, String token) {
    HttpClient http = HttpClient.newHttpClient();
    watcher = BenchSupport.daemonThreads("chaos-watch-").newThread(() -> {
      for (int app = 0; !closed; app++) {
        try (StreamClient stream = StreamClient.tapped(http, ports.get(app % ports.size()), token, frame -> {
          if ("message".equals(frame.path("type").asText())
              && SteadySender.conversation(0).equals(frame.path("message").path("convId").asText())) {
            pushes.add(System.nanoTime());
          }
        })) {
          while (!closed && !stream.isClosed()) {
            BenchSupport.sleep(100);
          }
        } catch (RuntimeException refused) {
          // that instance is down: the next one
        }
        BenchSupport.sleep(500);
      }
    });
    watcher.start();
  }

  /** When each push of the busy conversation arrived. */
  List<Long> pushes() {
    return List.copyOf(pushes);
  }

  @Override
  public void close() {
    closed = true;
  }
}
