package io.seqsync.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.LimitsSettings;
import io.seqsync.localstack.LocalRedis;
import io.seqsync.testkit.ApiClient;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.JedisPooled;

/**
 * Redis killed (SIGKILL) under a steady load of sends: Redis is a cache and an index here, so its
 * loss costs speed, not function. Every send is answered 200 with its committed seq while Redis is
 * down (the outcome comes through Kafka), the conversation list and unread counts are served (from
 * PostgreSQL), nothing is lost or doubled, and once Redis is back on its data (its append-only
 * file, without what was written while it was down) the index catches up: the list and unread
 * counts from Redis are exact again. The outage lasts {@code seqsync.test.redis-outage-seconds}
 * (10 s by default; the acceptance run uses 30).
 */
class RedisOutageEndToEndTest {
  private static final String SECRET = "redis-outage-test-secret-0123456789";
  private static final long[] USERS = {1, 2, 3, 4};
  private static final int SENDS_PER_SECOND = 100;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration OUTAGE = Duration.ofSeconds(Long.getLong("seqsync.test.redis-outage-seconds", 10));

  @TempDir Path dir;

  /** One send as the client saw it: the conversation, who sent it, and the seq its 200 named. */
  private record Answered(String convId, long sender, String clientMsgId, long seq, String msgId, boolean duringOutage) {}

  @Test
  void sendsAreAnsweredWithTheirSeqAndTheListIsServedWhileRedisIsDownAndExactAfterwards() throws Exception {
    Path redisDir = dir.resolve("redis");
    LocalRedis redis = LocalRedis.start(redisDir, 0);
    int redisPort = URI.create(redis.uri()).getPort();
    Map<String, String> settings = new HashMap<>(Map.of("data-dir", dir.resolve("app").toString(),
        "kafka.embedded-port", "0", "postgres.embedded-port", "0", "redis.uri", redis.uri(), "http.port", "0",
        // Far above a send's usual latency: a 202 here means the outcome did not come, not that it was slow.
        "http.reply-budget", "5s", "kafka.partitions", "3", "auth.secret", SECRET));
    // 100 sends a second from a few devices: far above a person's limits.
    settings.putAll(LimitsSettings.raisedTo(EndToEnd.RAISED_LIMITS));
    List<String> convs = new ArrayList<>();
    for (int i = 0; i < USERS.length; i++) {
      for (int j = i + 1; j < USERS.length; j++) {
        convs.add("d:" + USERS[i] + ":" + USERS[j]);
      }
    }
    Queue<Answered> answered = new ConcurrentLinkedQueue<>();
    AtomicInteger notOk = new AtomicInteger();
    try (SeqsyncApp app = SeqsyncApp.start(ConfigLoader.of(settings))) {
      Map<Long, ApiClient> clients = new HashMap<>();
      for (long user : USERS) {
        clients.put(user, EndToEnd.client(app, user, "phone"));
      }
      Load load = new Load(clients, convs, answered, notOk);
      load.warmUp(); // the first sends after a start may wait for the sequencer's group to form
      load.run(Duration.ofSeconds(3), false);

      ProcessHandle.of(Long.parseLong(Files.readString(redisDir.resolve("redis.pid")).trim()))
          .orElseThrow().destroyForcibly();
      load.run(OUTAGE.dividedBy(2), true);
      // While Redis is down, the list is served, and from what PostgreSQL holds.
      load.drain();
      assertListsMatchTheSends(clients, convs, List.copyOf(answered));
      load.run(OUTAGE.dividedBy(2), true);
      load.drain();
      assertListsMatchTheSends(clients, convs, List.copyOf(answered));

      LocalRedis restarted = LocalRedis.start(redisDir, redisPort);
      try (JedisPooled index = new JedisPooled(URI.create(restarted.uri()))) {
        load.run(Duration.ofSeconds(3), false);
        load.drain();
        load.stop();
        List<Answered> all = List.copyOf(answered);

        assertThat(notOk.get()).as("sends not answered 200 at once (a 202 or an error; retried until 200)").isZero();
        assertThat(all).filteredOn(Answered::duringOutage).as("sends during the outage")
            .hasSizeGreaterThan((int) (SENDS_PER_SECOND * OUTAGE.toSeconds() / 2));
        assertEveryConversationHoldsEachAnsweredSendOnce(clients, convs, all);
        // The index caught up with what it missed: Redis's own record of each conversation, and the
        // list (served from Redis again once it has) equal to what was sent.
        Map<String, Long> latest = latestSeqs(all);
        Map<String, String> expected = new TreeMap<>();
        latest.forEach((conv, seq) -> expected.put(conv, String.valueOf(seq)));
        EndToEnd.await(() -> JSON.valueToTree(indexedLatestSeqs(index, convs)), indexed -> indexed.equals(JSON.valueToTree(expected)));
        assertListsMatchTheSends(clients, convs, all);
      } finally {
        restarted.close();
      }
    } finally {
      try {
        redis.close();
      } catch (RuntimeException e) {
        // it was killed
      }
    }
  }

  /** Every user's list, each conversation's latest seq and unread count as the sends make them. */
  private static void assertListsMatchTheSends(Map<Long, ApiClient> clients, List<String> convs, List<Answered> sent) {
    Map<String, Long> latest = latestSeqs(sent);
    for (long user : USERS) {
      EndToEnd.await(() -> EndToEnd.ok(clients.get(user).get("/v1/conversations?limit=100")), list -> {
        Map<String, JsonNode> entries = new HashMap<>();
        list.get("conversations").forEach(entry -> entries.put(entry.get("convId").asText(), entry));
        return convs.stream().filter(conv -> member(conv, user)).allMatch(conv -> {
          JsonNode entry = entries.get(conv);
          return entry != null && entry.get("latestSeq").asLong() >= latest.getOrDefault(conv, 0L)
              && entry.get("unread").asLong() == unread(sent, conv, user, entry.get("latestSeq").asLong());
        });
      });
    }
  }

  // Other people's messages above the user's last own message (a sender has read what it sent), up to latestSeq.
  private static long unread(List<Answered> sent, String conv, long user, long latestSeq) {
    long readSeq = sent.stream().filter(s -> s.convId().equals(conv) && s.sender() == user && s.seq() <= latestSeq)
        .mapToLong(Answered::seq).max().orElse(0);
    return sent.stream().filter(s -> s.convId().equals(conv) && s.sender() != user && s.seq() > readSeq
        && s.seq() <= latestSeq).count();
  }

  private static void assertEveryConversationHoldsEachAnsweredSendOnce(Map<Long, ApiClient> clients, List<String> convs,
      List<Answered> sent) {
    for (String conv : convs) {
      ApiClient member = clients.get(Long.parseLong(conv.split(":")[1]));
      List<JsonNode> stored = new ArrayList<>();
      long after = 0;
      JsonNode page;
      do {
        page = EndToEnd.ok(member.get("/v1/conversations/" + conv + "/messages?after=" + after));
        page.get("messages").forEach(stored::add);
        after = page.get("nextAfter").asLong();
      } while (page.get("hasMore").asBoolean());
      List<Answered> answeredHere = sent.stream().filter(s -> s.convId().equals(conv)).toList();
      assertThat(stored).extracting(message -> message.get("seq").asLong()).as("%s: seqs 1..N", conv)
          .isEqualTo(LongStream.rangeClosed(1, stored.size()).boxed().toList());
      assertThat(stored).extracting(message -> message.get("clientMsgId").asText()).as("%s: each send once", conv)
          .doesNotHaveDuplicates()
          .containsExactlyInAnyOrderElementsOf(answeredHere.stream().map(Answered::clientMsgId).toList());
      Map<Long, String> storedIds = new TreeMap<>();
      stored.forEach(message -> storedIds.put(message.get("seq").asLong(), message.get("msgId").asText()));
      answeredHere.forEach(s -> assertThat(storedIds.get(s.seq())).as("%s seq %d as answered", conv, s.seq())
          .isEqualTo(s.msgId()));
    }
  }

  private static Map<String, String> indexedLatestSeqs(JedisPooled index, List<String> convs) {
    Map<String, String> indexed = new TreeMap<>();
    convs.forEach(conv -> indexed.put(conv, index.hget("ss:conv:{" + conv + "}", "latestSeq")));
    return indexed;
  }

  private static Map<String, Long> latestSeqs(List<Answered> sent) {
    Map<String, Long> latest = new HashMap<>();
    sent.forEach(s -> latest.merge(s.convId(), s.seq(), Math::max));
    return latest;
  }

  private static boolean member(String conv, long user) {
    String[] parts = conv.split(":");
    return Long.parseLong(parts[1]) == user || Long.parseLong(parts[2]) == user;
  }

  /**
   * {@value #SENDS_PER_SECOND} sends a second, each to a random conversation from one of its two
   * users, on a pool of clients; a send not answered 200 is counted and retried with the same
   * clientMsgId until it is (the original's seq comes back as a duplicate).
   */
  private static final class Load {
    private final Map<Long, ApiClient> clients;
    private final List<String> convs;
    private final Queue<Answered> answered;
    private final AtomicInteger notOk;
    private final ExecutorService senders = Executors.newFixedThreadPool(32);
    private final Random random = new Random(28);
    private final AtomicInteger inFlight = new AtomicInteger();

    Load(Map<Long, ApiClient> clients, List<String> convs, Queue<Answered> answered, AtomicInteger notOk) {
      this.clients = clients;
      this.convs = convs;
      this.answered = answered;
      this.notOk = notOk;
    }

    /** A send to each conversation, answered 200 in the end; not counted against the app. */
    void warmUp() throws Exception {
      List<Future<?>> sent = new ArrayList<>();
      for (String conv : convs) {
        sent.add(senders.submit(() -> send(conv, Long.parseLong(conv.split(":")[1]), false)));
      }
      for (Future<?> send : sent) {
        send.get(2, TimeUnit.MINUTES);
      }
      notOk.set(0);
    }

    void run(Duration duration, boolean outage) throws InterruptedException {
      long sends = duration.toSeconds() * SENDS_PER_SECOND;
      for (long i = 0; i < sends; i++) {
        String conv = convs.get(random.nextInt(convs.size()));
        String[] parts = conv.split(":");
        long sender = Long.parseLong(parts[1 + random.nextInt(2)]);
        inFlight.incrementAndGet();
        senders.submit(() -> {
          try {
            send(conv, sender, outage);
          } finally {
            inFlight.decrementAndGet();
          }
        });
        Thread.sleep(1000 / SENDS_PER_SECOND);
      }
    }

    private void send(String conv, long sender, boolean outage) {
      String clientMsgId = UUID.randomUUID().toString();
      String body = "{\"clientMsgId\":\"" + clientMsgId + "\",\"type\":\"text\",\"content\":\"hello\"}";
      for (int attempt = 0; attempt < 100; attempt++) {
        try {
          ApiClient.Response response = clients.get(sender).post("/v1/conversations/" + conv + "/messages", body);
          if (response.status() == 200) {
            JsonNode message = response.body().get("message");
            answered.add(new Answered(conv, sender, clientMsgId, message.get("seq").asLong(),
                message.get("msgId").asText(), outage));
            return;
          }
        } catch (RuntimeException e) {
          // counted below, retried
        }
        notOk.incrementAndGet();
        sleep(500);
      }
      throw new AssertionError("send " + clientMsgId + " never answered 200");
    }

    /** Waits until every send submitted so far was answered. */
    void drain() throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      while (inFlight.get() > 0) {
        assertThat(System.nanoTime()).as("sends still unanswered: %d", inFlight.get()).isLessThan(deadline);
        Thread.sleep(20);
      }
    }

    void stop() throws InterruptedException {
      senders.shutdown();
      assertThat(senders.awaitTermination(60, TimeUnit.SECONDS)).as("every send answered").isTrue();
    }

    private static void sleep(long millis) {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
