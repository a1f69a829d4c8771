package io.seqsync.notifier;

import java.util.Objects;

/**
 * One delivery a {@link DeliveryChannel} plans from the event log: what to send ({@code payload},
 * the channel's own encoding, read back by {@link DeliveryChannel#request}) to whom ({@code target},
 * e.g. a pusher id or a webhook endpoint id), in which {@code stream} (e.g. a convId) and for which
 * {@code seq} of it. The engine never sends a (channel, target, stream) a seq at or below one it
 * settled already. Immutable.
 */
public record Delivery(String target, String stream, long seq, byte[] payload) {
  public Delivery {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(stream, "stream");
    Objects.requireNonNull(payload, "payload");
  }
}
