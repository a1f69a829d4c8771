package io.seqsync.projector;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.Topics;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.StoredOutcome;
import io.seqsync.localstack.ChildJvm;
import io.seqsync.store.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly once under crashes, on real servers: the projector runs in a child JVM
 * ({@link ProjectorMain}) that is killed with SIGKILL several times while transactions of events
 * stream in (some of them aborted, as a crashing sequencer leaves them), and restarted each time.
 * PostgreSQL must then hold every committed message exactly once, seqs 1..N per conversation, no
 * seq anomaly, and offsets just past the last record. A replayed batch would show as a repeated
 * seq in the child's log; a lost one as a gap or a missing message.
 */
class ProjectorCrashRestartTest extends OnTestServers {
  private static final Logger log = LoggerFactory.getLogger(ProjectorCrashRestartTest.class);
  private static final int MESSAGES = 20_000;
  private static final int CONVERSATIONS = 30;
  private static final int PER_TRANSACTION = 100;
  private static final int ABORT_EVERY = 10;
  private static final int PARTITIONS = 4;
  private static final double[] KILL_AT_STORED_FRACTIONS = {0.15, 0.35, 0.55, 0.75};
  private static final int MIN_PROGRESS_BETWEEN_KILLS = 500;
  // About 1,000 messages/s for 20 s: the load still streams in when the last kill comes.
  private static final long PAUSE_BETWEEN_TRANSACTIONS_MS = 80;
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);


  @Test
  void everyCommittedMessageIsStoredExactlyOnceAcrossRepeatedKills() throws Exception {
    Topics topics = servers.topics(PARTITIONS);
    String jdbcUrl = servers.postgres().createDatabase("crash_restart");
    Path childLog = TestServers.childLog(getClass());

    try (ChildJvm projector = servers.projectorChild("crash-restart-test", PARTITIONS, jdbcUrl, childLog, "projector running");
        EventLog events = new EventLog(servers.bootstrapServers(), topics);
        AnnouncementsTap announcements = new AnnouncementsTap(servers.bootstrapServers(), topics)) {
      Queue<StoredOutcome> announced = announcements.outcomes();
      projector.start(START_TIMEOUT);
      try (Database database = servers.open(jdbcUrl)) {
        StoredProjection stored = new StoredProjection(database.jdbi(), topics.events().name());
        long loadBegan = System.nanoTime();
        CompletableFuture<Void> load = CompletableFuture.runAsync(() -> produce(events))
            .thenRun(() -> log.info("{} messages committed in {} ms", MESSAGES, (System.nanoTime() - loadBegan) / 1_000_000));

        List<Long> storedAtKills = new ArrayList<>(List.of(0L));
        Random random = new Random(7);
        for (double fraction : KILL_AT_STORED_FRACTIONS) {
          // Each restarted projector commits something before it dies again.
          long progressed = storedAtKills.get(storedAtKills.size() - 1) + MIN_PROGRESS_BETWEEN_KILLS;
          stored.awaitMessages(Math.max((long) (MESSAGES * fraction), progressed), Duration.ofSeconds(60), false);
          Thread.sleep(random.nextInt(400)); // anywhere in a batch: polling, writing, committing, announcing
          projector.kill();
          storedAtKills.add(stored.messageCount());
          long restartBegan = System.nanoTime();
          projector.start(START_TIMEOUT);
          log.info("killed the projector at {} stored messages; restarted in {} ms",
              storedAtKills.get(storedAtKills.size() - 1), (System.nanoTime() - restartBegan) / 1_000_000);
        }
        load.get(2, TimeUnit.MINUTES);
        long catchUpBegan = System.nanoTime();
        stored.awaitMessages(MESSAGES, Duration.ofSeconds(60), true);
        log.info("all {} messages stored {} ms after the last one was committed", MESSAGES,
            (System.nanoTime() - catchUpBegan) / 1_000_000);

        assertThat(storedAtKills).as("every kill landed mid-stream").allMatch(count -> count < MESSAGES);
        assertThat(storedAtKills).as("the kills, after progress").hasSize(KILL_AT_STORED_FRACTIONS.length + 1);
        assertThat(projector.starts()).isEqualTo(KILL_AT_STORED_FRACTIONS.length + 1);
        assertThat(events.committedMessages()).isEqualTo(MESSAGES);
        stored.assertHoldsExactly(events);
        assertThat(Files.readString(childLog)).as("the child's log")
            .doesNotContain("seq repeated", "seq gap", "undecodable", "projection failed");
        assertStoredBeforeAnnounced(announced, stored);
      }
    }
  }

  /** MESSAGES messages round-robin over CONVERSATIONS, paced, with an aborted transaction every ABORT_EVERY. */
  private static void produce(EventLog events) {
    List<String> convIds = IntStream.range(0, CONVERSATIONS)
        .mapToObj(i -> i % 2 == 0 ? "d:1:" + (i + 2) : "g:room-" + i).toList();
    for (int transaction = 0; transaction < MESSAGES / PER_TRANSACTION; transaction++) {
      if (transaction % ABORT_EVERY == 0) {
        events.abort(nextMessages(events, convIds, transaction));
      }
      events.commit(nextMessages(events, convIds, transaction));
      sleep(PAUSE_BETWEEN_TRANSACTIONS_MS);
    }
  }

  private static List<Event> nextMessages(EventLog events, List<String> convIds, int transaction) {
    return IntStream.range(0, PER_TRANSACTION)
        .mapToObj(i -> events.nextMessage(convIds.get((transaction * PER_TRANSACTION + i) % convIds.size())))
        .toList();
  }

  // Every announcement names a stored row: store, then announce (R1). Announcements of a batch
  // whose process died before publishing are lost, which pub/sub allows; so this checks a subset.
  private static void assertStoredBeforeAnnounced(Queue<StoredOutcome> announced, StoredProjection stored) {
    Set<String> storedKeys = new HashSet<>(stored.messageKeys());
    List<String> announcedKeys = announced.stream()
        .map(outcome -> outcome.getConvId() + "/" + outcome.getSeq() + "/" + outcome.getMsgId()).toList();
    assertThat(announcedKeys).as("announced messages").hasSizeGreaterThan(MESSAGES / 2);
    assertThat(storedKeys).containsAll(announcedKeys);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
