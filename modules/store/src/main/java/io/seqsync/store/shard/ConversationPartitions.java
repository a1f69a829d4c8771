package io.seqsync.store.shard;

import java.nio.charset.StandardCharsets;

/**
 * The partition of a conversation's commands and events, as Kafka's default partitioner computes
 * it for the record key (the convId): murmur2 of the key's UTF-8 bytes, made positive, modulo the
 * partition count. Kafka's own (its clients' {@code Utils.murmur2}), here so that the store needs no
 * Kafka client; {@code ShardsEndToEndTest} checks the two agree. Stateless.
 */
public final class ConversationPartitions {
  private ConversationPartitions() {}

  public static int of(String convId, int partitions) {
    return (murmur2(convId.getBytes(StandardCharsets.UTF_8)) & 0x7fffffff) % partitions;
  }

  static int murmur2(byte[] data) {
    final int m = 0x5bd1e995;
    final int r = 24;
    int length = data.length;
    int h = 0x9747b28c ^ length;
    for (int i = 0; i < length / 4; i++) {
      int i4 = i * 4;
      int k = (data[i4] & 0xff) + ((data[i4 + 1] & 0xff) << 8) + ((data[i4 + 2] & 0xff) << 16)
          + ((data[i4 + 3] & 0xff) << 24);
      k *= m;
      k ^= k >>> r;
      k *= m;
      h *= m;
      h ^= k;
    }
    int tail = length & ~3;
    switch (length % 4) {
      case 3:
        h ^= (data[tail + 2] & 0xff) << 16;
        // fall through
      case 2:
        h ^= (data[tail + 1] & 0xff) << 8;
        // fall through
      case 1:
        h ^= data[tail] & 0xff;
        h *= m;
        break;
      default:
        break;
    }
    h ^= h >>> 13;
    h *= m;
    h ^= h >>> 15;
    return h;
  }
}
