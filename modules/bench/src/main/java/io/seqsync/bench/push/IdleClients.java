package io.seqsync.bench.push;

import io.seqsync.ingress.auth.Tokens;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The client side of the idle-connection measurement, in a process of its own so that the
 * server's JVM holds only the server side (and each process stays within its open-files limit):
 * opens {@code count} push WebSockets to {@code 127.0.0.1:port}, each with a token of its own user
 * (signed with the development secret, as the benchmark's embedded app), waits for their {@code sync} frames, prints
 * {@link #READY} and then holds them until killed.
 *
 * <p>Usage: {@code IdleClients <port> <count> <upgrades in flight> <first user id>}
 */
public final class IdleClients {
  static final String READY = "idle clients ready";
  private static final Duration TTL = Duration.ofHours(2);

  private IdleClients() {}

  public static void main(String[] args) {
    int port = Integer.parseInt(args[0]);
    int count = Integer.parseInt(args[1]);
    int concurrency = Integer.parseInt(args[2]);
    long firstUser = Long.parseLong(args[3]);
    Tokens tokens = new Tokens(Tokens.DEV_SECRET); // the benchmark's app is fully embedded
    HttpClient client = HttpClient.newBuilder().executor(Executors.newFixedThreadPool(2)).build();
    AtomicInteger synced = new AtomicInteger();
    List<WebSocket> sockets = new ArrayList<>(count);
    long started = System.nanoTime();
    String[] failure = new String[1];
    int opened = openAll(count, concurrency, sockets, failure, j -> client.newWebSocketBuilder()
        .connectTimeout(Duration.ofSeconds(30))
        .buildAsync(URI.create("ws://127.0.0.1:" + port + "/v1/stream?access_token="
            + tokens.mint(firstUser + j, "idle", TTL)), new SyncCounter(synced)));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (synced.get() < opened && System.nanoTime() < deadline) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
    System.out.printf("opened=%d synced=%d seconds=%.1f failure=%s%n", opened, synced.get(),
        (System.nanoTime() - started) / 1e9, failure[0] == null ? "none" : failure[0].replace(' ', '_'));
    System.out.println(READY);
    System.out.flush();
    LockSupport.park(); // hold the sockets until the parent kills this process
  }

  /** Opens up to {@code n} sockets, {@code concurrency} upgrades at a time; gives up after 50 failures or 120 s. */
  private static int openAll(int n, int concurrency, List<WebSocket> into, String[] failure, Opener opener) {
    Semaphore permits = new Semaphore(concurrency);
    AtomicInteger ok = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    for (int j = 0; j < n && failed.get() < 50 && System.nanoTime() < deadline; j++) {
      permits.acquireUninterruptibly();
      opener.open(j).whenComplete((socket, error) -> {
        synchronized (into) {
          if (error != null) {
            failed.incrementAndGet();
            failure[0] = failure[0] == null ? error.toString() : failure[0];
          } else {
            into.add(socket);
            ok.incrementAndGet();
          }
        }
        permits.release();
      });
      if (j % 1000 == 999) {
        System.err.printf("  %d upgrades started, %d open, %d failed%n", j + 1, ok.get(), failed.get());
      }
    }
    permits.acquireUninterruptibly(concurrency);
    return ok.get();
  }

  @FunctionalInterface
  private interface Opener {
    CompletableFuture<WebSocket> open(int index);
  }

  /** Counts the first frame (the handshake) of each socket, and keeps reading what follows. */
  private static final class SyncCounter implements WebSocket.Listener {
    private final AtomicInteger synced;
    private boolean first = true;

    SyncCounter(AtomicInteger synced) {
      this.synced = synced;
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      if (first && last) {
        first = false;
        synced.incrementAndGet();
      }
      webSocket.request(1);
      return null;
    }
  }
}
