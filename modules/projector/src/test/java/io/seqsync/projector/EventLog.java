package io.seqsync.projector;

import io.seqsync.events.Topic;
import io.seqsync.events.Topics;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.MessageType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Writes the events topic the way the sequencer does: in Kafka transactions, keyed by convId, each
 * conversation's messages numbered 1, 2, 3... Remembers what it committed, to compare with what the
 * projection stored. Not thread-safe: one producing thread.
 */
final class EventLog implements AutoCloseable {
  private final Topic<String, Event> topic;
  private final KafkaProducer<String, byte[]> producer;
  // The last seq handed out per conversation, committed or not: an abort hands them out again.
  private final Map<String, Long> allocatedSeqs = new HashMap<>();
  private final Map<String, List<Long>> committedMsgIds = new LinkedHashMap<>();
  private final Map<Integer, Long> nextOffsets = new HashMap<>();
  private long lastMsgId = 1_000_000;

  EventLog(String bootstrapServers, Topics topics) {
    this.topic = topics.events();
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "event-log-" + UUID.randomUUID());
    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    producer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
    producer.initTransactions();
  }

  /** The next message of {@code convId}: seq = the previous one handed out + 1. */
  Event nextMessage(String convId) {
    long seq = allocatedSeqs.merge(convId, 1L, Long::sum);
    long msgId = ++lastMsgId;
    Message message = Message.newBuilder().setMsgId(msgId).setConvId(convId).setSeq(seq).setSenderId(1L)
        .setSenderDevice("phone").setClientMsgId("c" + msgId).setType(MessageType.TEXT).setContent("m" + msgId)
        .setCreateTime(System.currentTimeMillis()).build();
    return new Event(convId, "cmd-" + msgId, message.getCreateTime(), new MessageAppended(message));
  }

  /** Writes {@code events} in one committed transaction; their messages then count as appended. */
  void commit(List<Event> events) {
    List<Future<RecordMetadata>> sent = send(events);
    producer.commitTransaction();
    sent.forEach(this::remember);
    for (Event event : events) {
      if (event.getPayload() instanceof MessageAppended appended) {
        Message message = appended.getMessage();
        committedMsgIds.computeIfAbsent(message.getConvId(), conv -> new ArrayList<>()).add(message.getMsgId());
      }
    }
  }

  /** Writes {@code events} in a transaction that is then aborted: a read_committed reader never sees them. */
  void abort(List<Event> events) {
    send(events);
    producer.abortTransaction();
    events.forEach(event -> allocatedSeqs.put(event.getConvId(),
        (long) committedMsgIds.getOrDefault(event.getConvId(), List.of()).size()));
  }

  /** Writes bytes that are no event at all, committed, under {@code key}. */
  void commitGarbage(String key, byte[] value) {
    producer.beginTransaction();
    Future<RecordMetadata> sent = producer.send(new ProducerRecord<>(topic.name(), key, value));
    producer.commitTransaction();
    remember(sent);
  }

  /** Per conversation, the msgIds of its committed messages in seq order. */
  Map<String, List<Long>> committedMsgIds() {
    return committedMsgIds;
  }

  int committedMessages() {
    return committedMsgIds.values().stream().mapToInt(List::size).sum();
  }

  /** Per partition, the offset after the last committed record: where a projector that has read everything stands. */
  Map<Integer, Long> nextOffsets() {
    return nextOffsets;
  }

  @Override
  public void close() {
    producer.close();
  }

  private List<Future<RecordMetadata>> send(List<Event> events) {
    producer.beginTransaction();
    List<Future<RecordMetadata>> sent = new ArrayList<>();
    for (Event event : events) {
      byte[] value = topic.valueSerde().serializer().serialize(topic.name(), event);
      sent.add(producer.send(new ProducerRecord<>(topic.name(), event.getConvId(), value)));
    }
    return sent;
  }

  private void remember(Future<RecordMetadata> sent) {
    try {
      RecordMetadata metadata = sent.get();
      nextOffsets.merge(metadata.partition(), metadata.offset() + 1, Math::max);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a committed record has no metadata", e.getCause());
    }
  }
}
