package io.seqsync.sequencer;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * What the sequencer's stores are restoring from their changelogs now: the changelog partitions
 * being restored and the records still to read. Fed by Kafka Streams (a global restore listener);
 * thread-safe.
 */
final class RestoreProgress implements StateRestoreListener {
  private final Map<TopicPartition, Long> remaining = new ConcurrentHashMap<>();
  private final AtomicLong restored = new AtomicLong();

  @Override
  public void onRestoreStart(TopicPartition partition, String store, long startingOffset, long endingOffset) {
    remaining.put(partition, Math.max(0, endingOffset - startingOffset));
  }

  @Override
  public void onBatchRestored(TopicPartition partition, String store, long batchEndOffset, long restored) {
    remaining.computeIfPresent(partition, (key, left) -> Math.max(0, left - restored));
  }

  @Override
  public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
    restored.addAndGet(totalRestored);
    remaining.remove(partition);
  }

  @Override
  public void onRestoreSuspended(TopicPartition partition, String store, long totalRestored) {
    restored.addAndGet(totalRestored);
    remaining.remove(partition);
  }

  /** Changelog records restored since the start: a wiped task's whole changelog, an unwiped one's last commits. */
  long restored() {
    return restored.get();
  }

  int partitions() {
    return remaining.size();
  }

  long recordsLeft() {
    return remaining.values().stream().mapToLong(Long::longValue).sum();
  }
}
