package io.seqsync.bench.send;

import io.seqsync.consumers.TopicAdmin;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The send benchmark's reference, measured in the same run on the same broker, machine and load
 * generator: an HTTP server doing the least any ingress that answers after Kafka holds a send must
 * do. It reads the POST, produces its body keyed by the conversation id in the path to a topic of
 * the same partition count (idempotent, {@code acks=all}, the ingress's linger) and answers
 * {@code 200} once Kafka acknowledged it. No token, no JSON, no sequencer, no projection, no reply
 * path: what seqsync adds to that floor is the ratio of the two. Produces on the selector thread
 * that read the body, as the ingress does for a direct conversation's send, and answers from the
 * producer's callback; Jetty as the ingress has it otherwise (two selectors, an accept queue of
 * 1,024, no header cache). Thread-safe; one instance per app run.
 */
final class ProduceReference implements AutoCloseable {
  static final String TOPIC = "bench.reference.sends";
  /** The prefix of its server threads' names, and its producer's client id. */
  static final String THREADS = "reference-http";
  private static final int SELECTORS = 2;
  private static final int ACCEPT_QUEUE = 1024;
  private static final int MAX_BODY_BYTES = 1024 * 1024;
  private static final String PATH_PREFIX = "/v1/conversations/";
  private static final byte[] OK = "{\"message\":{}}".getBytes(StandardCharsets.UTF_8);

  private final KafkaProducer<byte[], byte[]> producer;
  private final Server server;
  private final ServerConnector connector;

  private ProduceReference(String bootstrapServers, Duration linger) {
    producer = new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ProducerConfig.CLIENT_ID_CONFIG, THREADS,
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
        ProducerConfig.ACKS_CONFIG, "all",
        ProducerConfig.LINGER_MS_CONFIG, Math.toIntExact(linger.toMillis())),
        new ByteArraySerializer(), new ByteArraySerializer());
    QueuedThreadPool threads = new QueuedThreadPool();
    threads.setName(THREADS);
    server = new Server(threads);
    // As the ingress: the load's many tokens would churn Jetty's per-connection header cache.
    HttpConfiguration http = new HttpConfiguration();
    http.setHeaderCacheSize(0);
    connector = new ServerConnector(server, -1, SELECTORS, new HttpConnectionFactory(http));
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    connector.setAcceptQueueSize(ACCEPT_QUEUE);
    server.addConnector(connector);
    server.setHandler(new Handler.Abstract.NonBlocking() {
      @Override
      public boolean handle(Request request, Response response, Callback callback) {
        String key = conversationOf(Request.getPathInContext(request));
        if (key == null || !"POST".equals(request.getMethod())) {
          Response.writeError(request, response, callback, 404);
          return true;
        }
        Content.Source.asByteArrayAsync(request, MAX_BODY_BYTES).whenComplete((body, unreadable) -> {
          if (unreadable != null) {
            Response.writeError(request, response, callback, 400);
            return;
          }
          producer.send(new ProducerRecord<>(TOPIC, key.getBytes(StandardCharsets.UTF_8), body), (metadata, failed) -> {
            if (failed != null) {
              Response.writeError(request, response, callback, 503);
            } else {
              response.setStatus(200);
              response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
              response.write(true, ByteBuffer.wrap(OK), callback);
            }
          });
        });
        return true;
      }
    });
  }

  /** Creates the reference topic with {@code partitions} and starts the server on a free port. */
  static ProduceReference start(String bootstrapServers, int partitions, Duration linger) {
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
      try {
        admin.createTopics(List.of(new NewTopic(TOPIC, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw new IllegalStateException("cannot create " + TOPIC, e.getCause());
        }
      } catch (InterruptedException | TimeoutException e) {
        throw new IllegalStateException("cannot create " + TOPIC, e);
      }
      TopicAdmin.awaitLeaders(admin, Map.of(TOPIC, partitions));
    }
    ProduceReference reference = new ProduceReference(bootstrapServers, linger);
    try {
      reference.server.start();
    } catch (Exception e) {
      reference.close();
      throw new IllegalStateException("the reference server did not start", e);
    }
    return reference;
  }

  int port() {
    return connector.getLocalPort();
  }

  /** The convId of {@code /v1/conversations/{convId}/messages}, else null. */
  static String conversationOf(String path) {
    if (!path.startsWith(PATH_PREFIX) || !path.endsWith("/messages")) {
      return null;
    }
    String convId = path.substring(PATH_PREFIX.length(), path.length() - "/messages".length());
    return convId.isEmpty() || convId.indexOf('/') >= 0 ? null : convId;
  }

  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      // Stopping is best effort at the end of a run; the JVM exits after the report.
    }
    producer.close(Duration.ofSeconds(5));
  }
}
