package io.seqsync.localstack;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the embedded child servers (PostgreSQL, Redis) again when one dies: a daemon thread
 * checks each one's process every second, and restarts a dead one on the same data directory and
 * port, logging what died, that it restarts it and how long that took. A stopped (SIGSTOP) process
 * is stalled, not dead, and left alone. A restart that fails, or a server that dies again within
 * 30 s of its restart, is retried after a back-off doubling from 1 s up to 30 s. Close it before the
 * servers, so that a clean stop is not taken for a death; once the JVM shuts down (when the servers'
 * own shutdown hooks stop them) it restarts nothing.
 */
final class ServerSupervisor implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ServerSupervisor.class);
  static final Duration INTERVAL = Duration.ofSeconds(1);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
  private static final Duration STABLE_AFTER = Duration.ofSeconds(30);
  private static final Duration CLOSE_TIMEOUT = Duration.ofMinutes(2);

  /** A supervised server: its name, where it runs (for the log), whether its process runs, how to start it again. */
  record Server(String name, Supplier<String> whereabouts, BooleanSupplier running, Runnable restart) {}

  private final List<Watch> watches;
  private final CountDownLatch stop = new CountDownLatch(1);
  private final Thread thread;

  private ServerSupervisor(List<Server> servers) {
    this.watches = servers.stream().map(Watch::new).toList();
    this.thread = new Thread(this::run, "localstack-supervisor");
    thread.setDaemon(true);
  }

  /** Supervises {@code servers} from now on. */
  static ServerSupervisor start(List<Server> servers) {
    ServerSupervisor supervisor = new ServerSupervisor(servers);
    supervisor.thread.start();
    return supervisor;
  }

  /** Stops supervising; a restart in progress is finished first. */
  @Override
  public void close() {
    stop.countDown();
    try {
      thread.join(CLOSE_TIMEOUT.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void run() {
    try {
      while (!stop.await(INTERVAL.toMillis(), TimeUnit.MILLISECONDS)) {
        for (Watch watch : watches) {
          if (stop.getCount() == 0) {
            return;
          }
          watch.check();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** One server's restarts: confined to the supervisor's thread. */
  private static final class Watch {
    private final Server server;
    private boolean down;
    private int failures; // restarts failed, or deaths soon after a restart, in a row
    private long restartedAt = System.nanoTime() - STABLE_AFTER.toNanos(); // its first start counts as long ago
    private long nextAttemptAt;

    Watch(Server server) {
      this.server = server;
    }

    void check() {
      long now = System.nanoTime();
      if (server.running().getAsBoolean()) {
        if (failures > 0 && now - restartedAt > STABLE_AFTER.toNanos()) {
          failures = 0;
        }
        return;
      }
      if (jvmShuttingDown()) {
        return; // the libraries' shutdown hooks stop the servers, maybe before this supervisor is closed
      }
      if (!down) {
        down = true;
        if (now - restartedAt < STABLE_AFTER.toNanos()) {
          failures++;
        }
        Duration delay = backoff(failures);
        nextAttemptAt = now + delay.toNanos();
        log.warn("{} ({}) died; restarting it on the same data directory and port{}", server.name(),
            server.whereabouts().get(), delay.isZero() ? "" : " in " + delay.toSeconds() + " s (it died again soon after its restart)");
      }
      if (now < nextAttemptAt) {
        return;
      }
      try {
        server.restart().run();
        long tookMs = (System.nanoTime() - now) / 1_000_000;
        down = false;
        restartedAt = System.nanoTime();
        log.warn("{} restarted in {} ms ({})", server.name(), tookMs, server.whereabouts().get());
      } catch (RuntimeException e) {
        failures++;
        Duration delay = backoff(failures);
        nextAttemptAt = System.nanoTime() + delay.toNanos();
        log.warn("{} did not restart ({}); trying again in {} s", server.name(), e.getMessage(), delay.toSeconds());
      }
    }

    // Once the JVM shuts down no hook can be added: a server started then would outlive it.
    private static boolean jvmShuttingDown() {
      Thread probe = new Thread(() -> { });
      try {
        Runtime.getRuntime().addShutdownHook(probe);
        Runtime.getRuntime().removeShutdownHook(probe);
        return false;
      } catch (IllegalStateException e) {
        return true;
      }
    }

    // None before the first attempt; then 1, 2, 4, ... s up to 30 s.
    private static Duration backoff(int failures) {
      if (failures == 0) {
        return Duration.ZERO;
      }
      long millis = INTERVAL.toMillis() << Math.min(failures - 1, 10);
      return Duration.ofMillis(Math.min(millis, MAX_BACKOFF.toMillis()));
    }
  }
}
