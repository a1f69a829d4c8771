package io.seqsync.ingress;

import io.javalin.http.Context;

/** The handshake handler. */
final class SyncEndpoint {
  private final SyncService syncs;

  SyncEndpoint(SyncService syncs) {
    this.syncs = syncs;
  }

  /** POST /v1/sync {cursors: {convId: seq}}. */
  void sync(Context ctx) {
    ctx.json(syncs.sync(Authentication.caller(ctx), Json.object(ctx.bodyAsBytes())));
  }
}
