package io.seqsync.bench.http;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

/**
 * Counts, and keeps off the console, the Kafka warnings that tell where send latency goes: produce
 * requests retried by a producer (by error: CONCURRENT_TRANSACTIONS when the previous transaction
 * is still completing, OUT_OF_ORDER_SEQUENCE_NUMBER when a transaction's first batch to a
 * partition is retried behind a later one; every retry waits retry.backoff.ms), the broker's
 * matching errors, and sends of the ingress that found no topic metadata within max.block.ms.
 */
final class KafkaWarnings extends TurboFilter {
  private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

  static KafkaWarnings install() {
    KafkaWarnings filter = new KafkaWarnings();
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
      filter.setContext(context);
      filter.start();
      context.addTurboFilter(filter);
    }
    return filter;
  }

  @Override
  public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    if (format == null || level == null || !level.isGreaterOrEqual(Level.WARN)) {
      return FilterReply.NEUTRAL;
    }
    if (format.contains("Got error produce response")) {
      // "... retrying (N attempts left). Error: NAME": Kafka's LogContext formats the message
      // before logging it, so the error is in the text (else the last argument).
      int at = format.lastIndexOf("Error: ");
      Object error = at >= 0 ? format.substring(at + "Error: ".length()).trim()
          : params == null || params.length == 0 ? "?" : params[params.length - 1];
      String client = format.contains("StreamThread") ? "sequencer" : format.contains("seqsync-ingress") ? "ingress"
          : format.contains("bench-preload") ? "preload" : "other";
      count(client + " producer retry " + error);
      return FilterReply.DENY;
    }
    if (format.contains("Error processing append operation")) {
      count("broker append error " + (t == null ? "?" : t.getClass().getSimpleName()));
      return FilterReply.DENY;
    }
    if (format.contains("cannot produce command") && params != null && params.length > 1
        && String.valueOf(params[1]).contains("not present in metadata")) {
      count("ingress metadata timeout");
      return FilterReply.DENY;
    }
    return FilterReply.NEUTRAL;
  }

  private void count(String key) {
    counts.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
  }

  /** The counts now, by kind. */
  Map<String, Long> snapshot() {
    Map<String, Long> copy = new TreeMap<>();
    counts.forEach((key, value) -> copy.put(key, value.get()));
    return copy;
  }

  /** {@code end - start}, kinds with no change left out. */
  static Map<String, Long> minus(Map<String, Long> end, Map<String, Long> start) {
    Map<String, Long> delta = new TreeMap<>();
    end.forEach((key, value) -> {
      long d = value - start.getOrDefault(key, 0L);
      if (d != 0) {
        delta.put(key, d);
      }
    });
    return delta;
  }
}
