package io.seqsync.projector;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.config.ConfigLoader;
import io.seqsync.events.EventSerdes;
import io.seqsync.events.Topic;
import io.seqsync.events.Topics;
import io.seqsync.events.model.DeliveryReport;
import io.seqsync.events.model.RenderFailed;
import io.seqsync.events.model.Rendered;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The delivery projector's batch function, a plain function of the records of one poll: no broker. */
class DeliveryReportsDecodeTest {
  private static final Topic<String, DeliveryReport> TOPIC = Topics.from(ConfigLoader.of(Map.of()).kafka()).telemetry();

  @Test
  void reportsDecodeInRecordOrderAndTheUndecodableAreCountedNotKept() {
    DeliveryReport rendered = new DeliveryReport(2L, "phone", "d:1:2", 3L, 103L, 7_000L, new Rendered(5_000L, 5_400L));
    DeliveryReport failed = new DeliveryReport(2L, "laptop", "d:1:2", 4L, 104L, 7_100L, new RenderFailed("bad image"));
    ConsumerRecords<String, byte[]> records = records(
        record(0, 10, EventSerdes.deliveryReport().encode(rendered)),
        record(0, 11, new byte[] {1, 2, 3}),
        record(1, 4, EventSerdes.deliveryReport().encode(failed)),
        record(1, 5, null));

    DeliveryProjector.Reports batch = DeliveryProjector.decode(TOPIC, records);

    assertThat(batch.reports()).containsExactly(rendered, failed);
    assertThat(batch.undecodable()).isEqualTo(2);
  }

  @Test
  void aPollOfNothingButGarbageIsAnEmptyBatch() {
    DeliveryProjector.Reports batch = DeliveryProjector.decode(TOPIC, records(record(0, 0, new byte[0])));

    assertThat(batch.reports()).isEmpty();
    assertThat(batch.undecodable()).isEqualTo(1);
  }

  private static ConsumerRecord<String, byte[]> record(int partition, long offset, byte[] value) {
    return new ConsumerRecord<>(TOPIC.name(), partition, offset, "d:1:2", value);
  }

  @SafeVarargs
  private static ConsumerRecords<String, byte[]> records(ConsumerRecord<String, byte[]>... records) {
    Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> byPartition = new LinkedHashMap<>();
    for (ConsumerRecord<String, byte[]> record : records) {
      byPartition.computeIfAbsent(new TopicPartition(record.topic(), record.partition()), key -> new ArrayList<>())
          .add(record);
    }
    return new ConsumerRecords<>(byPartition, Map.of());
  }
}
