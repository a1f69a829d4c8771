package io.seqsync.ingress.http;

import java.util.concurrent.CompletableFuture;

/**
 * An endpoint with who may call it: what every request goes through, whichever adapter serves it.
 * The caller is checked first, then the endpoint answers; every failure, thrown or completed, is
 * turned into the JSON error answer ({@link ErrorHandling#answer}), so an adapter only reads the
 * request, writes the answer and times it.
 */
public record Route<C>(Authenticator<C> authenticator, Endpoint<C> endpoint) {
  public static <C> Route<C> of(Authenticator<C> authenticator, Endpoint<C> endpoint) {
    return new Route<>(authenticator, endpoint);
  }

  /** For anyone, no token asked. */
  public static Route<Anyone> open(Endpoint<Anyone> endpoint) {
    return new Route<>(Authenticator.ANYONE, endpoint);
  }

  /** The answer to {@code request}: the endpoint's, or the error's; never a failed future. */
  public CompletableFuture<Answer> serve(ApiRequest request) {
    CompletableFuture<Answer> answer;
    try {
      answer = endpoint.answer(authenticator.authenticate(request), request);
    } catch (RuntimeException failure) {
      return CompletableFuture.completedFuture(ErrorHandling.answer(failure, request));
    }
    if (answer.isDone() && !answer.isCompletedExceptionally()) {
      return answer;
    }
    return answer.handle((done, failure) -> failure == null ? done : ErrorHandling.answer(failure, request));
  }
}
