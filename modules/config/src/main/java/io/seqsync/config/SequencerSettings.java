package io.seqsync.config;

import static io.seqsync.config.SeqsyncConfig.require;

import java.time.Duration;

/**
 * The Kafka Streams sequencer, and the limits it enforces (the ingress checks the same ones first:
 * content, group size, attachments).
 * {@code transactionalStores}: Streams' transactional state stores (KIP-892), whose RocksDB holds
 * only committed writes, so a task's state survives an unclean stop instead of being wiped and
 * restored from its changelog (docs/design.md, "Restart").
 */
public record SequencerSettings(
    String applicationId,
    Duration dedupWindow,
    int streamThreads,
    Duration commitInterval,
    Duration sessionTimeout,
    int maxContentBytes,
    int maxGroupMembers,
    boolean transactionalStores,
    AttachmentLimits attachments,
    Duration editWindow) {
  public SequencerSettings {
    require(!applicationId.isBlank(), "sequencer.application-id must not be blank");
    require(!dedupWindow.isNegative() && !dedupWindow.isZero(), "sequencer.dedup-window must be positive");
    require(streamThreads > 0, "sequencer.stream-threads must be positive");
    require(maxContentBytes > 0, "sequencer.max-content-bytes must be positive");
    require(maxGroupMembers >= 2, "sequencer.max-group-members must be at least 2");
    require(!editWindow.isNegative(), "sequencer.edit-window must not be negative");
  }
}
