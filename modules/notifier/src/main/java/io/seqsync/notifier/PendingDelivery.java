package io.seqsync.notifier;

/**
 * A delivery of the outbox claimed for sending: the planned {@link Delivery} (for a coalescing
 * channel, the latest one of its burst), and {@code attempts}, this one included (1 on the first
 * try). Immutable.
 */
public record PendingDelivery(long id, String channel, String target, String stream, long seq, byte[] payload,
    int attempts) {
  public Delivery delivery() {
    return new Delivery(target, stream, seq, payload);
  }
}
