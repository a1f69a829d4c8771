package io.seqsync.ingress.limits;

/**
 * What a route or a frame is limited as (docs/api.md, "Limits"): each names the buckets a request
 * takes a token of, all or none. Recalls count as sends; acks and reads, over HTTP or the push
 * socket, as positions.
 */
public enum Limit {
  SEND("send_device", "send_user"),
  POSITION("position_device"),
  DRAFT("draft_device"),
  GROUP("group_user"),
  TELEMETRY("telemetry_device"),
  /** A push socket opening (its handshake to come). */
  SOCKET("socket_user"),
  /** A server API request, per service (its token's name). */
  SERVER("server_service");

  private final String[] buckets;

  Limit(String... buckets) {
    this.buckets = buckets;
  }

  /** Its buckets' names, as {@code /metrics} labels them: {@code <kind>_device} or {@code <kind>_user}. */
  String[] buckets() {
    return buckets.clone();
  }
}
