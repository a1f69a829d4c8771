package io.seqsync.ingress.http;

/**
 * Who a request comes from, checked before its endpoint runs: the caller, or an
 * {@link ApiException} (401 without a valid token, 403 with a token that may not call).
 */
@FunctionalInterface
public interface Authenticator<C> {
  /** For the endpoints anyone may call (health, metrics, the web client's files). */
  Authenticator<Anyone> ANYONE = request -> Anyone.CALLER;

  C authenticate(ApiRequest request);
}
