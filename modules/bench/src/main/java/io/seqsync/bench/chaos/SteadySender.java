package io.seqsync.bench.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seqsync.bench.BenchSupport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client sending at a steady rate, as API.md asks a client to: each message gets a clientMsgId,
 * and whatever is not answered 200 is sent again with the same clientMsgId, to the next app
 * instance, until it is answered 200 with its seq: after a 503, a refused or cut connection or no
 * answer, after half a second, doubling up to 4 s; after a 202 (durably accepted, its seq not
 * known yet) after 5 s, since asking sooner only adds duplicates for the sequencer to answer. One conversation of every
 * five sends is the busy one. Records each send: when it was first tried, when it was first
 * acknowledged (200, or 202: durably in Kafka) and with what seq, and how its first attempt went.
 */
final class SteadySender implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long FIRST_RETRY_MILLIS = 500;
  private static final long MAX_RETRY_MILLIS = 4_000;
  private static final long ACCEPTED_RETRY_MILLIS = 5_000;

  /** One message and what became of it; times in ms since the run began, -1 while not yet. */
  static final class Send {
    final String conv;
    final String clientMsgId;
    final long firstTried;
    volatile boolean firstAttemptFailed;
    volatile long acknowledged = -1;
    volatile long stored = -1;
    volatile long seq = -1;
    volatile int attempts;

    Send(String conv, String clientMsgId, long firstTried) {
      this.conv = conv;
      this.clientMsgId = clientMsgId;
      this.firstTried = firstTried;
    }
  }

  private final List<String> apps;
  private final Map<Long, String> tokens;
  private final int conversations;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
      .executor(Executors.newFixedThreadPool(4, BenchSupport.daemonThreads("chaos-http-"))).build();
  private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(2, BenchSupport.daemonThreads("chaos-send-"));
  private final Map<String, Send> sends = new ConcurrentHashMap<>();
  private final AtomicLong counter = new AtomicLong();
  private final long start;
  private volatile boolean sending = true;

  SteadySender(List<String> apps, Map<Long, String> tokens, int conversations, long start) {
    this.apps = apps;
    this.tokens = tokens;
    this.conversations = conversations;
    this.start = start;
  }

  /** The busy conversation: a fifth of all sends. */
  static String busyConversation() {
    return conversation(0);
  }

  /** Conversation {@code k}: user 1 with user k + 2 (user 2 is the busy one's peer, who is pushed). */
  static String conversation(int k) {
    return "d:1:" + (k + 2);
  }

  /** Starts sending {@code rate} messages a second, evenly spaced. */
  void begin(int rate) {
    timer.scheduleAtFixedRate(this::sendNext, 0, 1_000_000 / rate, TimeUnit.MICROSECONDS);
  }

  /** Sends nothing new from now on; what is not acknowledged yet is still retried. */
  void stopNew() {
    sending = false;
  }

  Map<String, Send> sends() {
    return sends;
  }

  /** How many sends still wait for their 200. */
  long unsettled() {
    return sends.values().stream().filter(send -> send.stored < 0).count();
  }

  long now() {
    return (System.nanoTime() - start) / 1_000_000;
  }

  private void sendNext() {
    if (!sending) {
      return;
    }
    long n = counter.getAndIncrement();
    int k = n % 5 == 0 ? 0 : 1 + (int) (n % (conversations - 1));
    Send send = new Send(conversation(k), "chaos-" + UUID.randomUUID(), now());
    sends.put(send.clientMsgId, send);
    attempt(send, (int) (n % apps.size()));
  }

  private void attempt(Send send, int app) {
    send.attempts++;
    String body = "{\"clientMsgId\":\"" + send.clientMsgId + "\",\"type\":\"text\",\"content\":\"" + send.clientMsgId + "\"}";
    HttpRequest request = HttpRequest.newBuilder(URI.create(apps.get(app) + "/v1/conversations/" + send.conv + "/messages"))
        .timeout(Duration.ofSeconds(15)).header("Authorization", "Bearer " + tokens.get(1L))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
    http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, error) -> {
      int status = error == null ? response.statusCode() : 0;
      if (status == 200 || status == 202) {
        long at = now();
        if (send.acknowledged < 0) {
          send.acknowledged = at;
        }
        if (status == 200) {
          send.seq = seq(response.body());
          send.stored = at;
          return;
        }
      }
      if (send.attempts == 1) {
        send.firstAttemptFailed = true;
      }
      long pause = status == 202 ? ACCEPTED_RETRY_MILLIS
          : Math.min(MAX_RETRY_MILLIS, FIRST_RETRY_MILLIS << Math.min(send.attempts - 1, 4));
      timer.schedule(() -> attempt(send, (app + 1) % apps.size()), pause, TimeUnit.MILLISECONDS);
    });
  }

  private static long seq(String body) {
    try {
      JsonNode message = JSON.readTree(body).path("message");
      return message.path("seq").asLong(-1);
    } catch (java.io.IOException e) {
      return -1;
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
