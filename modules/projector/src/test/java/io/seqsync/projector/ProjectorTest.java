package io.seqsync.projector;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.ProjectorSettings;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.consumers.ProjectionLag;
import io.seqsync.consumers.TopicAdmin;
import io.seqsync.events.Announcements;
import io.seqsync.events.Topics;
import io.seqsync.events.model.CommandRejected;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.OutcomeKind;
import io.seqsync.events.model.RejectReason;
import io.seqsync.events.model.StoredOutcome;
import io.seqsync.store.Database;
import io.seqsync.store.StoredOffsets;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The projector in this JVM, on real servers: what it stores, skips, counts and announces, and
 * how it comes through a failing database and a hand-over between instances. Each test has its
 * own topics, database and consumer group.
 */
class ProjectorTest extends OnTestServers {
  private static final AtomicInteger TESTS = new AtomicInteger();
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final List<String> CONVERSATIONS = List.of("d:1:2", "d:1:3", "g:team");


  private final List<AutoCloseable> resources = new ArrayList<>();
  private Topics topics;
  private Database database;
  private StoredProjection stored;
  private EventLog events;
  private ProjectorSettings settings;

  @BeforeEach
  void isolate() {
    int test = TESTS.incrementAndGet();
    SeqsyncConfig config = ConfigLoader.of(Map.of("kafka.topic-prefix", "t" + test + ".", "kafka.partitions", "3",
        "projector.group-id", "projector-test-" + test, "projector.retry-backoff", "200ms"));
    topics = Topics.from(config.kafka());
    settings = config.projector();
    TopicAdmin.ensure(KafkaConnection.plain(servers.bootstrapServers()), topics, (short) 1);
    String jdbcUrl = servers.postgres().createDatabase("projector_" + test);
    database = closing(servers.open(jdbcUrl));
    stored = new StoredProjection(database.jdbi(), topics.events().name());
    events = closing(new EventLog(servers.bootstrapServers(), topics));
  }

  @AfterEach
  void closeResources() throws Exception {
    for (int i = resources.size() - 1; i >= 0; i--) {
      resources.get(i).close();
    }
  }

  @Test
  void storesCommittedEventsSkipsUndecodableRecordsAndAnnouncesAfterTheCommit() throws Exception {
    Queue<StoredOutcome> announced = closing(new AnnouncementsTap(servers.bootstrapServers(), topics)).outcomes();
    events.commitGarbage("d:1:2", "not an event".getBytes(StandardCharsets.UTF_8));
    events.abort(messages(30));
    Event rejected = new Event("g:team", "cmd-rejected", 1L, new CommandRejected(RejectReason.NOT_ALLOWED, "not a member"));
    events.commit(List.of(rejected));
    events.commit(messages(300));
    SimpleMeterRegistry registry = new SimpleMeterRegistry();

    Projector projector = closing(projector(registry));
    projector.start();

    stored.awaitOffsets(events.nextOffsets(), TIMEOUT);
    stored.assertHoldsExactly(events);
    assertThat(count(registry, "seqsync.projector.undecodable")).isEqualTo(1);
    assertThat(count(registry, "seqsync.projector.events.projected")).isEqualTo(301);
    assertThat(registry.get("seqsync.projector.seq.anomalies").counters()).hasSize(2)
        .allMatch(counter -> counter.count() == 0);
    assertThat(registry.get("seqsync.projector.batch.size").summary().totalAmount()).isEqualTo(302);
    assertThat(registry.get("seqsync.projector.batch.latency").timer().count()).isPositive();
    await(() -> announced.size() == 301);
    assertThat(announced).contains(Announcements.rejected("cmd-rejected", "g:team", "NOT_ALLOWED: not a member"));
    List<String> storedKeys = stored.messageKeys();
    assertThat(announced).filteredOn(outcome -> outcome.getKind() == OutcomeKind.APPENDED).hasSize(300)
        .allMatch(outcome -> storedKeys.contains(outcome.getConvId() + "/" + outcome.getSeq() + "/" + outcome.getMsgId()));
  }

  @Test
  void aFailingDatabaseIsRetriedFromTheStoredOffsetsWithoutLossOrRepeat() throws Exception {
    database.jdbi().useHandle(handle -> handle.execute("create function refuse() returns trigger language plpgsql"
        + " as 'begin raise exception ''the disk is full''; end';"
        + " create trigger refuse_messages before insert on messages for each row execute function refuse()"));
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Projector projector = closing(projector(registry));
    projector.start();
    events.commit(messages(200));

    await(() -> count(registry, "seqsync.projector.batch.failures") >= 3);
    assertThat(stored.messageCount()).isZero();
    assertThat(stored.offsets()).as("rolled back with the rows").isEmpty();
    events.commit(messages(100));
    database.jdbi().useHandle(handle -> handle.execute("drop trigger refuse_messages on messages"));

    stored.awaitOffsets(events.nextOffsets(), TIMEOUT);
    stored.assertHoldsExactly(events);
    assertThat(count(registry, "seqsync.projector.events.projected")).isEqualTo(300);
    assertThat(registry.get("seqsync.projector.seq.anomalies").counters()).allMatch(counter -> counter.count() == 0);
  }

  @Test
  void aMessageReusingAStoredMsgIdIsLeftOutAndTheRestOfItsBatchStored() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Projector projector = closing(projector(registry));
    projector.start();
    events.commit(messages(30));
    stored.awaitMessages(30, TIMEOUT, true);
    long storedMsgId = events.committedMsgIds().get("d:1:2").get(0);
    List<Event> batch = new ArrayList<>(messages(15));
    Event reusing = events.nextMessage("d:1:2");
    Message message = ((MessageAppended) reusing.getPayload()).getMessage();
    message.setMsgId(storedMsgId);
    batch.add(reusing);
    batch.addAll(messages(15));
    events.commit(batch);

    stored.awaitOffsets(events.nextOffsets(), TIMEOUT);
    assertThat(stored.messageCount()).isEqualTo(60);
    assertThat(stored.messageKeys()).doesNotContain("d:1:2/" + message.getSeq() + "/" + storedMsgId)
        .contains("d:1:2/1/" + storedMsgId);
    assertThat(count(registry, "seqsync.projector.batch.failures")).isZero();
    assertThat(registry.get("seqsync.projector.seq.anomalies").counters()).allMatch(counter -> counter.count() == 0);
  }

  @Test
  void instancesHandPartitionsOverExactlyOnce() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Projector first = closing(projector(registry));
    Projector second = closing(projector(registry));
    first.start();
    second.start();
    events.commit(messages(600));
    stored.awaitMessages(600, TIMEOUT, true);

    // The first leaves the group with events in flight: the second takes its partitions over from
    // the offsets in PostgreSQL. Then a third joins and takes some of them.
    for (int round = 0; round < 5; round++) {
      events.commit(messages(300));
    }
    first.close();
    await(() -> second.assignedPartitions().size() == 3);
    for (int round = 0; round < 5; round++) {
      events.commit(messages(300));
    }
    Projector third = closing(projector(registry));
    third.start();
    // Until the rebalance settled: in between, the second may hold none.
    await(() -> !third.assignedPartitions().isEmpty()
        && second.assignedPartitions().size() + third.assignedPartitions().size() == 3);
    events.commit(messages(300));
    assertThat(third.assignedPartitions()).doesNotContainAnyElementsOf(second.assignedPartitions());

    stored.awaitOffsets(events.nextOffsets(), TIMEOUT);
    stored.assertHoldsExactly(events);
    assertThat(first.stopped()).isCompleted();
    assertThat(count(registry, "seqsync.projector.events.projected")).isEqualTo(events.committedMessages());
    assertThat(registry.get("seqsync.projector.seq.anomalies").counters()).allMatch(counter -> counter.count() == 0);
  }

  @Test
  void theLagCountsCommittedEventsNotYetProjectedAndNothingOnceCaughtUp() throws Exception {
    ProjectionLag lag = closing(new ProjectionLag(KafkaConnection.plain(servers.bootstrapServers()), topics.events().name(),
        (topic, timeout) -> StoredOffsets.read(database.jdbi(), topic, timeout)));
    assertThat(lag.measure(TIMEOUT).partitions()).hasSize(3).allMatch(partition -> partition.lag() == 0);
    events.abort(messages(30));
    events.commit(messages(90));
    events.commit(messages(60));

    // A commit returns before its markers are written: the last stable offset moves a moment later.
    await(() -> lag.measure(TIMEOUT).total() >= 150);
    ProjectionLag.Snapshot behind = lag.measure(TIMEOUT);
    assertThat(behind.total()).as("the committed events only: no marker, no aborted record").isEqualTo(150);
    assertThat(behind.worst().orElseThrow().lag()).isGreaterThanOrEqualTo(50);
    Projector projector = closing(projector(new SimpleMeterRegistry()));
    projector.start();
    stored.awaitOffsets(events.nextOffsets(), TIMEOUT);

    ProjectionLag.Snapshot caughtUp = lag.measure(TIMEOUT);
    assertThat(caughtUp.total()).isZero();
    assertThat(caughtUp.partitions()).as("the offsets differ by the last transaction's marker, yet nothing is behind")
        .anyMatch(partition -> partition.endOffset() > partition.projectedOffset());
    projector.close();
    int many = 4 * ProjectionLag.COUNTED_UP_TO;
    events.commit(messages(many));
    await(() -> lag.measure(TIMEOUT).total() >= many);
    long total = lag.measure(TIMEOUT).total();
    assertThat(total).as("a large gap: the offsets between, markers too (at most two a partition here)").isBetween((long) many, many + 6L);
  }

  private Projector projector(MeterRegistry registry) {
    AnnouncementPublisher announcements = closing(new AnnouncementPublisher(KafkaConnection.plain(servers.bootstrapServers()),
        topics.announcements(), registry));
    return new Projector(KafkaConnection.plain(servers.bootstrapServers()), topics, database, announcements, registry, settings);
  }

  private List<Event> messages(int count) {
    return IntStream.range(0, count).mapToObj(i -> events.nextMessage(CONVERSATIONS.get(i % CONVERSATIONS.size()))).toList();
  }

  private <T extends AutoCloseable> T closing(T resource) {
    resources.add(resource);
    return resource;
  }

  private static double count(MeterRegistry registry, String counter) {
    return registry.get(counter).counter().count();
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waited %s for a condition", TIMEOUT).isLessThan(deadline);
      Thread.sleep(50);
    }
  }
}
