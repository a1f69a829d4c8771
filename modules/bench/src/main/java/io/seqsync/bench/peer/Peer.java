package io.seqsync.bench.peer;

import java.util.function.Consumer;

/**
 * One server under test as the load generator sees it: its processes (started, killed, their
 * CPU), its client library (sends, an online device, a catch-up) and what it stored. The users are
 * the same on both: senders {@code 0..conversations-1}, each in one one-to-one conversation with
 * each {@link Receiver}.
 */
interface Peer extends AutoCloseable {
  /** The receiving users: one for each measurement, so that each one's conversations hold only its messages. */
  enum Receiver { LIVE, CATCHUP, CRASH }

  /** What a catch-up took: seconds until every message was held. */
  record CatchUp(double seconds) {}

  String name();

  /** Starts the server (again, after a kill) and returns once it serves; the senders are connected. */
  void start() throws Exception;

  /** SIGKILL to the server process. */
  void kill();

  /** CPU seconds of the server's processes so far (see {@link io.seqsync.bench.Cpu#treeNanos}). */
  double cpuSeconds();

  /**
   * Sends message {@code id} with {@code text} from sender {@code k} to {@code receiver}; {@code done}
   * learns (on a client thread) whether the server took it: seqsync answered 200 or 202, the XMPP
   * library accepted the stanza on a live stream. Never blocks for long.
   */
  void send(Receiver receiver, int k, String id, String text, Consumer<Boolean> done);

  /** Brings a device of {@code receiver} online, recording what it gets in {@link Deliveries}; it reconnects by itself. */
  AutoCloseable online(Receiver receiver) throws Exception;

  /** Waits until the server holds {@code expected} messages for {@code receiver} (or the time is up); returns how many. */
  long awaitStored(Receiver receiver, long expected, long timeoutMillis) throws Exception;

  /** Connects {@code receiver}'s device, offline until now, and returns once it holds every message of {@code deliveries}. */
  CatchUp catchUp(Receiver receiver, Deliveries deliveries) throws Exception;

  /** Waits until the senders' sessions are up again after a restart (up to {@code timeoutMillis}). */
  default void awaitSenders(long timeoutMillis) {
  }

  /** The client side's state in a few words, for the progress lines (connections up, and the like). */
  default String clientState() {
    return "";
  }

  /** What the server's storage holds, table by table, for the durability report. */
  String storageCounts() throws Exception;

  /** Waits up to 30 s for a killed server's process to be gone. */
  static void awaitExit(Process process) {
    try {
      process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
