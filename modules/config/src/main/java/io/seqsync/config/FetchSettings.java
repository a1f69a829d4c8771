package io.seqsync.config;

import static io.seqsync.config.SeqsyncConfig.require;

import java.time.Duration;

/**
 * Fetches (GET messages, the handshake, activation, the list): a token bucket per device of
 * {@code ratePerSecond} refill and {@code burst} size, and two lanes, first screens and history
 * paging, each with its own bounded concurrency and wait; a handshake answers at most
 * {@code syncPageSize} conversations ({@code sync.page-size}) and says where the next page starts;
 * its first {@code syncScreenConversations} carry their first screens, within {@code syncScreenBytes}
 * of content; a stopping server spreads its sockets' reconnects at {@code syncReconnectRate} a second.
 */
public record FetchSettings(int ratePerSecond, int burst, Lane firstScreen, Lane paging, int syncPageSize,
    int syncScreenConversations, long syncScreenBytes, int syncReconnectRate) {
  /** Of the HTTP server's 250 threads, what the lanes may hold at most; the rest serve everything else. */
  public static final int MAX_LANE_THREADS = 200;
  /** Defaults of the handshake's first screens: conversations carried, bytes of content, reconnects/s. */
  public static final int SYNC_SCREEN_CONVERSATIONS = 100;
  public static final long SYNC_SCREEN_BYTES = 1 << 20;
  public static final int SYNC_RECONNECT_RATE = 2_000;

  public FetchSettings {
    require(ratePerSecond > 0 && ratePerSecond <= 1_000_000, "fetch.rate must be 1..1000000");
    require(burst > 0, "fetch.burst must be positive");
    require(firstScreen.threads() + paging.threads() <= MAX_LANE_THREADS,
        "the fetch lanes' concurrency + queue together must be at most " + MAX_LANE_THREADS);
    require(syncPageSize > 0 && syncPageSize <= 10_000, "sync.page-size must be 1..10000");
    require(syncScreenConversations >= 0 && syncScreenConversations <= syncPageSize,
        "sync.screen-conversations must be 0..sync.page-size");
    require(syncScreenBytes >= 0 && syncScreenBytes <= 64L << 20, "sync.screen-bytes must be 0..67108864");
    require(syncReconnectRate > 0, "sync.reconnect-rate must be positive");
  }

  /**
   * A lane: at most {@code concurrency} requests run, at most {@code queue} more wait, each at
   * most {@code maxWait} for its turn ({@code fetch.<name>.wait}).
   */
  public record Lane(String name, int concurrency, int queue, Duration maxWait) {
    public Lane {
      require(concurrency > 0, "fetch." + name + ".concurrency must be positive");
      require(queue >= 0, "fetch." + name + ".queue must not be negative");
      require(!maxWait.isNegative(), "fetch." + name + ".wait must not be negative");
    }

    /** The most HTTP server threads this lane can hold: running and waiting. */
    public int threads() {
      return concurrency + queue;
    }
  }
}
