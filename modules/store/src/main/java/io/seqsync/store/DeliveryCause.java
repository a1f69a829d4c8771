package io.seqsync.store;

import java.util.Locale;

/**
 * Why a delivery is a negative case (R24): the root-cause classes of the library in
 * {@code delivery_cases}, written by the delivery projector and read by the ops pages.
 */
public enum DeliveryCause {
  /** The device could not render the message (R17); the client's reason is the detail. */
  RENDER_FAILED,
  /** Rendered before it was sent by the two clients' clocks: the latency cannot be told. */
  CLOCK_SKEW,
  /** Late, and most of the time passed before the server numbered it (sender's network, retries, ingress). */
  SLOW_SEND,
  /** Late, and most of the time passed after it was numbered (push or pull, an offline receiver, rendering). */
  SLOW_DELIVERY;

  /** The value stored in {@code delivery_cases.cause}. */
  public String column() {
    return name().toLowerCase(Locale.ROOT);
  }
}
