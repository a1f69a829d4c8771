package io.seqsync.projector;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.ByteMutation;
import io.seqsync.events.EventSerdes;
import io.seqsync.events.SampleRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

/**
 * Whatever the event log holds, decoding a poll never throws: every record is either an event or
 * counted as undecodable and skipped, and the offsets move past all of them, so no record can
 * stall the projector.
 */
class DecodedBatchFuzzTest {
  private static final TopicPartition PARTITION = new TopicPartition("seqsync.events", 0);

  @Property(tries = 200)
  void everyRecordIsDecodedOrSkipped(@ForAll("values") List<byte[]> values) {
    List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      records.add(new ConsumerRecord<>(PARTITION.topic(), PARTITION.partition(), 100 + i, "d:1:2", values.get(i)));
    }

    DecodedBatch batch = DecodedBatch.decode(new ConsumerRecords<>(Map.of(PARTITION, records), Map.of()));

    assertThat(batch.events().size() + batch.undecodable()).isEqualTo(values.size());
    assertThat(batch.nextOffsets()).containsEntry(PARTITION.partition(), 100L + values.size());
  }

  @Provide
  Arbitrary<List<byte[]>> values() {
    Arbitrary<byte[]> valid = SampleRecords.events().map(EventSerdes.event()::encode);
    Arbitrary<byte[]> corrupted = Combinators.combine(valid, ByteMutation.arbitrary().list().ofMinSize(1).ofMaxSize(3))
        .as(ByteMutation::applyAll);
    Arbitrary<byte[]> garbage = Arbitraries.bytes().array(byte[].class).ofMaxSize(100);
    return Arbitraries.oneOf(valid, corrupted, garbage).list().ofMinSize(1).ofMaxSize(8);
  }
}
