package io.seqsync.bench.peer;

import io.seqsync.bench.Latencies;
import org.HdrHistogram.Histogram;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * What one receiver got of one phase's messages, message by message. A message is named
 * {@code <tag>-<i>} (seqsync's clientMsgId, the XMPP stanza's id); message {@code i} belongs to
 * conversation {@code i % conversations}. A copy is what the server stored: seqsync's seq, the
 * XMPP archive's stanza-id; the same copy arriving twice (pushed and fetched, resent after a
 * reconnect) is a redelivery a client recognises, another copy of the same message a duplicate.
 * Each message's first copy has an order key (seqsync: its seq; XMPP: its arrival number), by
 * which its conversation is read.
 */
final class Deliveries {
  private static final Map<String, Deliveries> OPEN = new ConcurrentHashMap<>();
  private static final AtomicInteger FOREIGN = new AtomicInteger();

  final String tag;
  final int total;
  final int conversations;
  final long[] dueNanos;
  final long[] arrivalNanos;
  private final String[] firstCopy;
  private final long[] orderKey;
  private final AtomicIntegerArray arrivals;
  private final Map<Integer, Set<String>> extraCopies = new ConcurrentHashMap<>();
  private final AtomicInteger redeliveries = new AtomicInteger();

  private Deliveries(String tag, int total, int conversations) {
    this.tag = tag;
    this.total = total;
    this.conversations = conversations;
    dueNanos = new long[total];
    arrivalNanos = new long[total];
    firstCopy = new String[total];
    orderKey = new long[total];
    arrivals = new AtomicIntegerArray(total);
  }

  /** A phase's record, found by the receivers through its tag until {@link #close}. */
  static Deliveries open(String tag, int total, int conversations) {
    Deliveries deliveries = new Deliveries(tag, total, conversations);
    OPEN.put(tag, deliveries);
    return deliveries;
  }

  void close() {
    OPEN.remove(tag);
  }

  String id(int i) {
    return tag + "-" + i;
  }

  /** Records an arrival of message {@code id} ({@code <tag>-<i>}) as {@code copy}; a name of no open phase is counted apart. */
  static void arrived(String id, String copy, long orderKey, long nanos) {
    int dash = id == null ? -1 : id.lastIndexOf('-');
    Deliveries deliveries = dash > 0 ? OPEN.get(id.substring(0, dash)) : null;
    int i = -1;
    if (deliveries != null) {
      try {
        i = Integer.parseInt(id.substring(dash + 1));
      } catch (NumberFormatException e) {
        i = -1;
      }
    }
    if (deliveries == null || i < 0 || i >= deliveries.total) {
      FOREIGN.incrementAndGet();
      return;
    }
    deliveries.record(i, copy, orderKey, nanos);
  }

  static int foreign() {
    return FOREIGN.get();
  }

  private void record(int i, String copy, long key, long nanos) {
    if (arrivals.getAndIncrement(i) == 0) {
      firstCopy[i] = copy;
      orderKey[i] = key;
      arrivalNanos[i] = nanos;
      return;
    }
    String first = firstCopy[i];
    if (first != null && first.equals(copy)) {
      redeliveries.incrementAndGet();
    } else if (!extraCopies.computeIfAbsent(i, k -> ConcurrentHashMap.newKeySet()).add(copy)) {
      redeliveries.incrementAndGet();
    }
  }

  boolean received(int i) {
    return arrivals.get(i) > 0;
  }

  int receivedCount(int from, int to) {
    int n = 0;
    for (int i = from; i < to; i++) {
      n += arrivals.get(i) > 0 ? 1 : 0;
    }
    return n;
  }

  /** Other copies of messages already held: stored twice by the server. */
  int duplicates() {
    return extraCopies.values().stream().mapToInt(Set::size).sum();
  }

  int redeliveries() {
    return redeliveries.get();
  }

  /** Messages that, read in their conversation's order, come after a message sent later than them. */
  int outOfOrder() {
    List<List<Integer>> byConversation = new ArrayList<>();
    for (int c = 0; c < conversations; c++) {
      byConversation.add(new ArrayList<>());
    }
    for (int i = 0; i < total; i++) {
      if (arrivals.get(i) > 0) {
        byConversation.get(i % conversations).add(i);
      }
    }
    int late = 0;
    for (List<Integer> messages : byConversation) {
      messages.sort(Comparator.comparingLong(i -> orderKey[i]));
      int highest = -1;
      for (int i : messages) {
        if (i < highest) {
          late++;
        }
        highest = Math.max(highest, i);
      }
    }
    return late;
  }

  /** Due → first arrival (µs) of the messages {@code from..to} that arrived. */
  Histogram latencies(int from, int to) {
    Histogram latencies = Latencies.histogram();
    for (int i = from; i < to; i++) {
      if (arrivals.get(i) > 0) {
        Latencies.record(latencies, Math.max(1_000, arrivalNanos[i] - dueNanos[i]));
      }
    }
    return latencies;
  }

  /** First arrivals inside {@code [start, end)} (nanoTime). */
  int arrivedBetween(long start, long end) {
    int n = 0;
    for (int i = 0; i < total; i++) {
      if (arrivals.get(i) > 0 && arrivalNanos[i] >= start && arrivalNanos[i] < end) {
        n++;
      }
    }
    return n;
  }

  /** The last first arrival (nanoTime), 0 if none. */
  long lastArrival() {
    long last = 0;
    for (int i = 0; i < total; i++) {
      if (arrivals.get(i) > 0) {
        last = Math.max(last, arrivalNanos[i]);
      }
    }
    return last;
  }
}
