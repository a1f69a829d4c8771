package io.seqsync.ingress.api;

import io.seqsync.events.ConvId;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.store.PresenceQueries;
import java.util.List;

/**
 * GET /v1/conversations/{convId}/receipts: where every member stands, for the ticks beside a
 * sender's messages (docs/api.md, "Receipts"): {@code delivered}, the highest seq any of their
 * devices acked, and {@code seen}, their read position. A message at seq s is delivered to a
 * member when delivered >= s, seen when seen >= s; a group's counts are those of its other
 * members. Kept current by the stream's {@code delivered} and {@code read} frames.
 */
public final class ReceiptsEndpoint {
  record Receipt(String userId, long delivered, long seen) {}

  record Receipts(String convId, List<Receipt> receipts) {}

  private final AccessControl access;
  private final PresenceQueries queries;

  public ReceiptsEndpoint(AccessControl access, PresenceQueries queries) {
    this.access = access;
    this.queries = queries;
  }

  public Answer receipts(Caller caller, ApiRequest request) {
    ConvId convId = AccessControl.convId(request.pathParam("convId"));
    access.requireMember(caller, convId);
    return Answer.ok(new Receipts(convId.value(), queries.receipts(convId.value()).stream()
        .map(receipt -> new Receipt(Long.toString(receipt.userId()), receipt.delivered(), receipt.seen())).toList()));
  }
}
