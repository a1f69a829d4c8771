package io.seqsync.store.replica;

import io.seqsync.store.MessageQueries;
import io.seqsync.store.SyncQueries;

/** The reads that replicas may answer: a conversation's pages, and the reconnect handshake. */
public record ReplicaReads(Routed<MessageQueries> pages, Routed<SyncQueries> handshakes) {
  /** Both on the primary alone. */
  public static ReplicaReads primaryOnly(MessageQueries pages, SyncQueries handshakes) {
    return new ReplicaReads(Routed.primaryOnly(pages), Routed.primaryOnly(handshakes));
  }
}
