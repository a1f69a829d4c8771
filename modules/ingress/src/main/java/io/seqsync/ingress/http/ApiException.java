package io.seqsync.ingress.http;

/**
 * An error answer of the API: an HTTP status and the {@code {"error":{"code","message"}}} body
 * (API.md: Errors). Thrown by handlers and domain code alike; the exception handlers turn it into
 * the response.
 */
public final class ApiException extends RuntimeException {
  private final int status;
  private final String code;
  private final long retryAfterSeconds;

  public ApiException(int status, String code, String message) {
    this(status, code, message, 0);
  }

  private ApiException(int status, String code, String message, long retryAfterSeconds) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** A refusal the client should retry after {@code seconds} (sent as {@code Retry-After}). */
  public static ApiException retryLater(int status, String code, String message, long seconds) {
    return new ApiException(status, code, message, Math.max(1, seconds));
  }

  public int status() {
    return status;
  }

  public String code() {
    return code;
  }

  /** Seconds for {@code Retry-After}; 0 when the answer has none. */
  public long retryAfterSeconds() {
    return retryAfterSeconds;
  }

  public static ApiException badRequest(String code, String message) {
    return new ApiException(400, code, message);
  }

  public static ApiException unauthorized(String code, String message) {
    return new ApiException(401, code, message);
  }

  public static ApiException forbidden(String code, String message) {
    return new ApiException(403, code, message);
  }

  public static ApiException notFound(String code, String message) {
    return new ApiException(404, code, message);
  }

  public static ApiException conflict(String code, String message) {
    return new ApiException(409, code, message);
  }

  public static ApiException tooLarge(String code, String message) {
    return new ApiException(413, code, message);
  }

  public static ApiException unavailable(String code, String message) {
    return new ApiException(503, code, message);
  }
}
