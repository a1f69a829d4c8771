package io.seqsync.store.shard;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Utils;

/**
 * The partition of a conversation's commands and events, as Kafka's default partitioner computes
 * it for the record key (the convId): murmur2 of the key's UTF-8 bytes, made positive, modulo the
 * partition count. Stateless.
 */
public final class ConversationPartitions {
  private ConversationPartitions() {}

  public static int of(String convId, int partitions) {
    return Utils.toPositive(Utils.murmur2(convId.getBytes(StandardCharsets.UTF_8))) % partitions;
  }
}
