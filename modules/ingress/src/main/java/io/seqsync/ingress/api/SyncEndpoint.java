package io.seqsync.ingress.api;

import io.seqsync.ingress.auth.Authentication;
import io.seqsync.ingress.http.Json;

import io.javalin.http.Context;

/** The handshake handler. */
public final class SyncEndpoint {
  private final SyncService syncs;

  public SyncEndpoint(SyncService syncs) {
    this.syncs = syncs;
  }

  /** POST /v1/sync {cursors: {convId: seq}}. */
  public void sync(Context ctx) {
    ctx.json(syncs.sync(Authentication.caller(ctx), Json.object(ctx.bodyAsBytes())));
  }
}
