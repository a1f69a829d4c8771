package io.seqsync.sequencer;

import java.util.List;
import org.apache.kafka.streams.KafkaStreams;

/**
 * This instance's sequencer as its health sees it: the Kafka Streams state, each stream thread's
 * state with its active tasks, and the changelog partitions being restored with the records they
 * still have to read (zero when nothing is restoring).
 */
public record SequencerStatus(KafkaStreams.State state, List<StreamThread> threads, int restoringPartitions,
    long recordsToRestore) {

  /** A stream thread: its name, its state ({@code RUNNING}, {@code PARTITIONS_ASSIGNED}, ...), its active tasks. */
  public record StreamThread(String name, String state, List<String> activeTasks) {}

  /**
   * Whether this instance cannot sequence again without a restart: Streams shut down or failed
   * (an uncaught error in a stream thread shuts the whole client down, see SequencerService).
   */
  public boolean failedForGood() {
    return switch (state) {
      case PENDING_ERROR, ERROR, PENDING_SHUTDOWN, NOT_RUNNING -> true;
      default -> false;
    };
  }
}
