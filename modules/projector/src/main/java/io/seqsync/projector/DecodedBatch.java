package io.seqsync.projector;

import io.seqsync.events.EventSerdes;
import io.seqsync.events.model.Event;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.errors.SerializationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The records of one poll, decoded: the events (in offset order within each partition, which is
 * all the order a conversation has), the next offset of every partition the poll returned, and
 * how many records could not be decoded. Those are skipped: they would never decode on a retry
 * either, and stopping would stall every conversation of their partition. Immutable.
 */
record DecodedBatch(List<Event> events, List<Integer> partitions, Map<Integer, Long> nextOffsets, int undecodable) {
  private static final Logger log = LoggerFactory.getLogger(DecodedBatch.class);

  DecodedBatch {
    events = List.copyOf(events);
    partitions = List.copyOf(partitions);
    nextOffsets = Map.copyOf(nextOffsets);
  }

  static DecodedBatch decode(ConsumerRecords<String, byte[]> records) {
    List<Event> events = new ArrayList<>(records.count());
    List<Integer> partitions = new ArrayList<>(records.count());
    Map<Integer, Long> nextOffsets = new HashMap<>();
    int undecodable = 0;
    for (ConsumerRecord<String, byte[]> record : records) {
      nextOffsets.put(record.partition(), record.offset() + 1);
      try {
        events.add(EventSerdes.event().decode(record.value()));
        partitions.add(record.partition());
      } catch (SerializationException e) {
        undecodable++;
        log.error("skipping undecodable record {}/{}@{} (key {}): {}",
            record.topic(), record.partition(), record.offset(), record.key(), e.getMessage());
      }
    }
    return new DecodedBatch(events, partitions, nextOffsets, undecodable);
  }
}
