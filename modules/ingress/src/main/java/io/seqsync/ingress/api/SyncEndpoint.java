package io.seqsync.ingress.api;

import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.Json;


/** The handshake handler. */
public final class SyncEndpoint {
  private final SyncService syncs;

  public SyncEndpoint(SyncService syncs) {
    this.syncs = syncs;
  }

  /** POST /v1/sync {cursors: {convId: seq}}. */
  public Answer sync(Caller caller, ApiRequest request) {
    return Answer.ok(syncs.sync(caller, Json.object(request.body())));
  }
}
