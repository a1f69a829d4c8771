package io.seqsync.store.shard;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether each shard's primary answers, from a {@code select 1} on it every {@code every}: a shard
 * whose probe failed or did not answer within {@code timeout} is down until one succeeds. A probe
 * still running when the next is due counts as failed and none is started beside it, so a stopped
 * server holds one thread per shard, not one per round. The ingress refuses the commands of a down
 * shard's conversations (503) instead of taking them into a partition whose projection cannot
 * store them. Every shard is up until probed. Thread-safe; closing stops the probes.
 */
public final class ShardAvailability implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ShardAvailability.class);

  private final ShardMap shards;
  private final Duration timeout;
  private final AtomicIntegerArray down;
  private final CompletableFuture<?>[] running;
  private final ScheduledExecutorService schedule;
  private final ExecutorService probes;

  private ShardAvailability(ShardMap shards, Duration timeout) {
    this.shards = shards;
    this.timeout = timeout;
    this.down = new AtomicIntegerArray(shards.size());
    this.running = new CompletableFuture<?>[shards.size()];
    this.schedule = Executors.newSingleThreadScheduledExecutor(daemon("seqsync-shard-availability"));
    this.probes = Executors.newCachedThreadPool(daemon("seqsync-shard-probe"));
  }

  /** Probes every shard of {@code shards} now and then every {@code every}. */
  public static ShardAvailability probing(ShardMap shards, Duration every, Duration timeout) {
    ShardAvailability availability = new ShardAvailability(shards, timeout);
    availability.schedule.scheduleWithFixedDelay(availability::probeAll, 0, every.toMillis(), TimeUnit.MILLISECONDS);
    return availability;
  }

  /** Whether the shard that holds {@code convId} answered its latest probe. */
  public boolean isUp(String convId) {
    return isShardUp(shards.indexOf(convId));
  }

  /** Whether shard {@code index} answered its latest probe. */
  public boolean isShardUp(int index) {
    return down.get(index) == 0;
  }

  public int size() {
    return shards.size();
  }

  private void probeAll() {
    List<Jdbi> all = shards.all();
    for (int index = 0; index < all.size(); index++) {
      probe(index, all.get(index));
    }
  }

  private void probe(int index, Jdbi shard) {
    CompletableFuture<?> previous = running[index];
    if (previous != null && !previous.isDone()) {
      if (down.getAndSet(index, 1) == 0) {
        log.warn("shard {}'s primary does not answer (its last probe still waits): its conversations' commands are"
            + " refused", index);
      }
      return;
    }
    CompletableFuture<Integer> answer = CompletableFuture.supplyAsync(
        () -> shard.withHandle(handle -> handle.createQuery("select 1").mapTo(Integer.class).one()), probes);
    running[index] = answer;
    // A copy times out: the probe itself stays running, so the next round sees it still hung.
    answer.copy().orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
        .whenComplete((one, error) -> {
          int was = down.getAndSet(index, error == null ? 0 : 1);
          if (was == 0 && error != null) {
            log.warn("shard {}'s primary does not answer ({}): its conversations' commands are refused", index,
                error instanceof TimeoutException ? "no answer within " + timeout.toMillis() + " ms"
                    : error.getMessage());
          } else if (was == 1 && error == null) {
            log.info("shard {}'s primary answers again", index);
          }
        });
  }

  private static ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  @Override
  public void close() {
    schedule.shutdownNow();
    probes.shutdownNow();
  }
}
