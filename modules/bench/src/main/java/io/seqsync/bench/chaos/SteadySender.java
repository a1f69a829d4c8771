package io.seqsync.bench.chaos;

import io.seqsync.testkit.ApiClient;
import io.seqsync.testkit.Outbox;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client sending at a steady rate through an outbox (sent again with the same clientMsgId, to
 * the next app instance, until answered 200). One conversation of every five sends is the busy
 * one, whose pushes {@link PushWatch} records.
 */
final class SteadySender implements AutoCloseable {
  /** One message: when it was first tried (nanoTime), and what became of it once answered 200. */
  record Send(String conv, String clientMsgId, long firstTried, CompletableFuture<Outbox.Delivery> delivery) {
    Outbox.Delivery done() {
      return delivery.getNow(null);
    }
  }

  /** An attempt's answer: when (nanoTime), to which conversation, its status (0: none). */
  record Answer(long at, String conv, int status) {}

  /** Every attempt's answer so far. */
  final ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
  private final Outbox outbox;
  private final int conversations;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private final Map<String, Send> sends = new ConcurrentHashMap<>();
  private final AtomicLong counter = new AtomicLong();
  private volatile boolean sending = true;

  SteadySender(List<ApiClient> apps, int conversations) {
    this.outbox = new Outbox(apps, 500)
        .onAnswer((conv, status) -> answers.add(new Answer(System.nanoTime(), conv, status)));
    this.conversations = conversations;
  }

  /** Conversation {@code k}: user 1 with user k + 2 (user 2 is the busy one's peer, who is pushed). */
  static String conversation(int k) {
    return "d:1:" + (k + 2);
  }

  /** Starts sending {@code rate} messages a second, evenly spaced. */
  void begin(int rate) {
    timer.scheduleAtFixedRate(this::sendNext, 0, 1_000_000 / rate, TimeUnit.MICROSECONDS);
  }

  /** Sends nothing new from now on; what is not answered 200 yet is still retried. */
  void stopNew() {
    sending = false;
  }

  Map<String, Send> sends() {
    return sends;
  }

  long unsettled() {
    return sends.values().stream().filter(send -> send.done() == null).count();
  }

  private void sendNext() {
    if (sending) {
      long n = counter.getAndIncrement();
      String conv = conversation(n % 5 == 0 ? 0 : 1 + (int) (n % (conversations - 1)));
      String clientMsgId = "chaos-" + UUID.randomUUID();
      sends.put(clientMsgId, new Send(conv, clientMsgId, System.nanoTime(), outbox.send(conv, clientMsgId, clientMsgId)));
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    outbox.close();
  }
}
