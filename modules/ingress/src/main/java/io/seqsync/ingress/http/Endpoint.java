package io.seqsync.ingress.http;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;

/**
 * An endpoint of the API, whichever server serves it: from who calls ({@code C}: a chat user's
 * {@code Caller}, an {@code Operator}, {@link Anyone}) and what they ask to what they get, now or
 * later. A request it refuses fails with an {@link ApiException}, thrown or as the future's failure;
 * the adapters turn every failure into the same JSON error ({@link ErrorHandling}).
 */
@FunctionalInterface
public interface Endpoint<C> {
  CompletableFuture<Answer> answer(C caller, ApiRequest request);

  /** An endpoint that answers at once, on the thread that serves the request. */
  static <C> Endpoint<C> now(BiFunction<C, ApiRequest, Answer> endpoint) {
    return (caller, request) -> CompletableFuture.completedFuture(endpoint.apply(caller, request));
  }
}
