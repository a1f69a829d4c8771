package io.seqsync.ingress.commands;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.Announcements;
import io.seqsync.events.EventSerdes;
import io.seqsync.events.model.DuplicateCommand;
import io.seqsync.events.model.StoredOutcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The replies listener's batch function, a plain function of the records of one poll: no broker. */
class RepliesListenerDecodeTest {
  private static final String REPLIES = "seqsync.replies";
  private static final String ANNOUNCEMENTS = "seqsync.announcements";

  @Test
  void duplicatesAndAnnouncedOutcomesAreToldApartByTopic() {
    DuplicateCommand duplicate = new DuplicateCommand("cmd-2", "d:1:2", 99L, 7L);
    List<StoredOutcome> announced = List.of(Announcements.appended("cmd-1", "d:1:2", 8, 100, 1_764_410_000_123L),
        Announcements.applied("cmd-3", "g:team", 5));
    ConsumerRecords<byte[], byte[]> records = records(
        new ConsumerRecord<>(REPLIES, 0, 3, null, EventSerdes.duplicate().encode(duplicate)),
        new ConsumerRecord<>(ANNOUNCEMENTS, 1, 9, null, Announcements.encode(announced)));

    RepliesListener.Replies replies = RepliesListener.decode(REPLIES, records);

    assertThat(replies.duplicates()).containsExactly(duplicate);
    assertThat(replies.outcomes()).containsExactlyElementsOf(announced);
  }

  @Test
  void recordsThatDoNotDecodeAreSkipped() {
    ConsumerRecords<byte[], byte[]> records = records(
        new ConsumerRecord<>(REPLIES, 0, 3, null, new byte[] {9, 9, 9}),
        new ConsumerRecord<>(ANNOUNCEMENTS, 0, 4, null, new byte[0]),
        new ConsumerRecord<>(ANNOUNCEMENTS, 0, 5, null, Announcements.encode(List.of(Announcements.applied("cmd-4", "d:1:2", 2)))));

    RepliesListener.Replies replies = RepliesListener.decode(REPLIES, records);

    assertThat(replies.duplicates()).isEmpty();
    assertThat(replies.outcomes()).containsExactly(Announcements.applied("cmd-4", "d:1:2", 2));
  }

  @SafeVarargs
  private static ConsumerRecords<byte[], byte[]> records(ConsumerRecord<byte[], byte[]>... records) {
    Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> byPartition = new LinkedHashMap<>();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      byPartition.computeIfAbsent(new TopicPartition(record.topic(), record.partition()), key -> new ArrayList<>())
          .add(record);
    }
    return new ConsumerRecords<>(byPartition, Map.of());
  }
}
