package io.seqsync.ingress.server;

import io.seqsync.ingress.auth.Service;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.Endpoint;
import io.seqsync.ingress.http.ErrorHandling;
import io.seqsync.store.ServerRequestQueries;
import io.seqsync.store.ServerRequestQueries.Claim;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server API's {@code Idempotency-Key}: a request that carries one is answered once, and a
 * retry with the same key (same service, same method, path and body) gets that first answer again,
 * with {@code Idempotent-Replayed: true}, for 24 hours ({@link ServerRequestQueries}; older keys are
 * deleted every {@value #EXPIRE_EVERY} keys claimed). Only a
 * success (2xx) is kept: after a refusal or a failure the key is given up, and a retry runs anew.
 * The same key with another request is a 422 {@code idempotency_key_reused}; a retry while the
 * first is still running, a 409 {@code request_in_progress}. Without a key a request simply runs
 * (a send is idempotent by its clientMsgId anyway). Thread-safe.
 */
public final class IdempotencyKeys {
  public static final String HEADER = "Idempotency-Key";
  static final String REPLAYED = "Idempotent-Replayed";
  private static final int MAX_KEY_LENGTH = 255;
  // Every this many keys claimed, the keys past their window are deleted (one indexed delete, off the request's thread).
  private static final int EXPIRE_EVERY = 1000;

  private final ServerRequestQueries requests;
  private final Executor storing;
  private final AtomicLong claims = new AtomicLong();

  /** {@code storing}: where answers are written to PostgreSQL (not the thread that completes them: a reply listener's). */
  public IdempotencyKeys(ServerRequestQueries requests, Executor storing) {
    this.requests = requests;
    this.storing = storing;
  }

  /** {@code endpoint}, answered once per idempotency key. */
  public Endpoint<Service> once(Endpoint<Service> endpoint) {
    return (service, request) -> {
      Optional<String> key = key(request.header(HEADER));
      if (key.isEmpty()) {
        return endpoint.answer(service, request);
      }
      String fingerprint = fingerprint(request);
      Optional<Claim> held = requests.claim(service.name(), key.get(), fingerprint);
      if (claims.incrementAndGet() % EXPIRE_EVERY == 0) {
        storing.execute(requests::expire);
      }
      if (held.isPresent()) {
        return CompletableFuture.completedFuture(replay(held.get(), fingerprint));
      }
      CompletableFuture<Answer> answer;
      try {
        answer = endpoint.answer(service, request);
      } catch (RuntimeException failure) {
        answer = CompletableFuture.failedFuture(failure);
      }
      return answer.handleAsync((done, failure) -> {
        Answer outcome = failure == null ? done : ErrorHandling.answer(failure, request);
        if (outcome.status() / 100 == 2) {
          requests.answer(service.name(), key.get(), outcome.status(), outcome.body());
        } else {
          requests.release(service.name(), key.get());
        }
        return outcome;
      }, storing);
    };
  }

  private static Answer replay(Claim claim, String fingerprint) {
    if (!claim.fingerprint().equals(fingerprint)) {
      throw new ApiException(422, "idempotency_key_reused",
          "this Idempotency-Key was used with another request in the last 24 hours");
    }
    if (!claim.answered()) {
      throw ApiException.conflict("request_in_progress", "a request with this Idempotency-Key is still running; retry later");
    }
    return Answer.jsonBytes(claim.status(), claim.body()).withHeader(REPLAYED, "true");
  }

  private static Optional<String> key(String header) {
    if (header == null) {
      return Optional.empty();
    }
    if (header.isEmpty() || header.length() > MAX_KEY_LENGTH || !header.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw ApiException.badRequest("invalid_idempotency_key",
          "Idempotency-Key must be 1-" + MAX_KEY_LENGTH + " visible ASCII characters");
    }
    return Optional.of(header);
  }

  private static String fingerprint(ApiRequest request) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      digest.update((request.method() + " " + request.path() + "\n").getBytes(StandardCharsets.UTF_8));
      digest.update(request.body());
      return HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
