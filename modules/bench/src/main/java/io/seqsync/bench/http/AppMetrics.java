package io.seqsync.bench.http;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The app's own meters, read from outside its code: the Prometheus text of {@code /metrics}
 * (projector batches, HTTP server time per route) and the JMX beans of the Kafka clients that run
 * in this JVM (the ingress's producer, the sequencer's stream thread and its transactional
 * producer) and the embedded broker's requests by type. Counters are cumulative: a phase is the
 * difference of two snapshots.
 */
final class AppMetrics {
  static final String BROKER_REQUESTS = "jmx:broker-requests:";
  static final String SEND_ROUTE = "route=\"/v1/conversations/{convId}/messages\"";

  /** Every sample of a scrape by its full name with labels, plus the Kafka client meters under "jmx:...". */
  record Snapshot(Map<String, Double> values) {
    double get(String key) {
      return values.getOrDefault(key, 0.0);
    }

    /** The sum of the samples named {@code name} whose labels contain every one of {@code labels}. */
    double sum(String name, String... labels) {
      double sum = 0;
      for (Map.Entry<String, Double> entry : values.entrySet()) {
        String key = entry.getKey();
        int brace = key.indexOf('{');
        String bare = brace < 0 ? key : key.substring(0, brace);
        if (!bare.equals(name)) {
          continue;
        }
        boolean all = true;
        for (String label : labels) {
          all &= key.contains(label);
        }
        if (all) {
          sum += entry.getValue();
        }
      }
      return sum;
    }
  }

  private final HttpClient http;
  private final URI metrics;
  private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();

  AppMetrics(HttpClient http, int port) {
    this.http = http;
    this.metrics = URI.create("http://127.0.0.1:" + port + "/metrics");
  }

  Snapshot snapshot() {
    Map<String, Double> values = new HashMap<>();
    try {
      String text = http.send(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(10)).GET().build(),
          HttpResponse.BodyHandlers.ofString()).body();
      for (String line : text.split("\n")) {
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        int space = line.lastIndexOf(' ');
        try {
          values.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
          // not a sample
        }
      }
    } catch (java.io.IOException e) {
      System.err.println("  (cannot read /metrics: " + e + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    jmx(values, "kafka.producer:type=producer-metrics,client-id=*", "seqsync-ingress", "ingress-producer",
        Set.of("request-latency-avg", "record-queue-time-avg", "records-per-request-avg", "request-total",
            "record-send-total"));
    jmx(values, "kafka.producer:type=producer-metrics,client-id=*", "StreamThread-1-producer", "sequencer-producer",
        Set.of("txn-commit-time-ns-total", "txn-begin-time-ns-total", "txn-send-offsets-time-ns-total",
            "flush-time-ns-total", "request-latency-avg", "record-send-total"));
    jmx(values, "kafka.streams:type=stream-thread-metrics,thread-id=*", "StreamThread-1", "sequencer-thread",
        Set.of("commit-total", "commit-latency-avg", "commit-latency-max", "commit-ratio", "process-ratio", "poll-ratio",
            "poll-records-avg", "process-total", "poll-total", "poll-latency-avg", "process-latency-avg"));
    jmx(values, "kafka.consumer:type=consumer-fetch-manager-metrics,client-id=*", "seqsync-projector",
        "projector-consumer", Set.of("fetch-latency-avg", "fetch-total", "records-per-request-avg"));
    brokerRequests(values);
    return new Snapshot(values);
  }

  /** The embedded broker's requests by type, cumulative, under "jmx:broker-requests:{type}" (its yammer meters). */
  private void brokerRequests(Map<String, Double> values) {
    try {
      for (ObjectName name : server.queryNames(new ObjectName("kafka.network:type=RequestMetrics,name=RequestsPerSec,*"),
          null)) {
        Object count = server.getAttribute(name, "Count");
        if (count instanceof Number number) {
          values.merge(BROKER_REQUESTS + name.getKeyProperty("request"), number.doubleValue(), Double::sum);
        }
      }
    } catch (Exception e) {
      System.err.println("  (cannot read the broker's request meters: " + e + ")");
    }
  }

  private void jmx(Map<String, Double> values, String pattern, String clientContains, String prefix, Set<String> names) {
    try {
      for (ObjectName name : server.queryNames(new ObjectName(pattern), null)) {
        if (!name.getCanonicalName().contains(clientContains)) {
          continue;
        }
        for (String attribute : names) {
          try {
            Object value = server.getAttribute(name, attribute);
            if (value instanceof Number number && !Double.isNaN(number.doubleValue())) {
              values.merge("jmx:" + prefix + ":" + attribute, number.doubleValue(), Double::sum);
            }
          } catch (Exception e) {
            // the client does not have this meter (yet)
          }
        }
      }
    } catch (Exception e) {
      System.err.println("  (cannot read JMX " + pattern + ": " + e + ")");
    }
  }

  /** Names of the Kafka client beans in this JVM, to help when a meter is missing. */
  String kafkaBeans() {
    StringBuilder text = new StringBuilder();
    for (String domain : new String[] {"kafka.producer", "kafka.consumer", "kafka.streams"}) {
      try {
        for (ObjectName name : server.queryNames(new ObjectName(domain + ":*"), null)) {
          text.append(name.getCanonicalName()).append('\n');
        }
      } catch (Exception e) {
        // skip
      }
    }
    return text.toString();
  }
}
