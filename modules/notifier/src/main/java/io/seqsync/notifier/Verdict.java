package io.seqsync.notifier;

/** What became of one try of a delivery. */
public enum Verdict {
  /** The receiver took it (2xx): settled. */
  DELIVERED,
  /** Nothing to send any more (the channel's request was empty): settled, nothing sent. */
  SKIPPED,
  /** A failure worth another try (5xx, 408, 429, no answer): retried after a back-off, dead-lettered after the last try. */
  RETRY,
  /** The receiver refused it for good (other 4xx): dead-lettered at once. */
  REFUSED,
  /** Only in {@link DeliveryChannel#settled}: the last try failed too (a {@link #RETRY} too many); dead-lettered. */
  GAVE_UP;

  /** The verdict on an HTTP status: the default for a channel's {@link DeliveryChannel#verdict}. */
  public static Verdict ofStatus(int status) {
    if (status >= 200 && status < 300) {
      return DELIVERED;
    }
    if (status >= 500 || status == 408 || status == 429) {
      return RETRY;
    }
    return REFUSED;
  }
}
