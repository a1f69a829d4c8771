package io.seqsync.ingress.auth;

/** A bearer token that is not acceptable; {@code code} is the API error code (token_expired, invalid_token). */
public final class InvalidTokenException extends RuntimeException {
  private final String code;

  public InvalidTokenException(String code, String message) {
    super(message);
    this.code = code;
  }

  public String code() {
    return code;
  }
}
