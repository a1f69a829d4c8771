package io.seqsync.ingress.http;

/** The body of every error answer, and of a push stream's error frame: {@code {"error":{"code","message"}}}. */
public record ErrorBody(Error error) {
  public static ErrorBody of(String code, String message) {
    return new ErrorBody(new Error(code, message));
  }

  /** A machine-readable code (API.md's) and a sentence for people. */
  public record Error(String code, String message) {}
}
