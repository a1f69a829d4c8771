package io.seqsync.ingress.ops;

import com.nimbusds.jwt.JWTParser;
import io.seqsync.ingress.auth.Authentication;
import io.seqsync.ingress.auth.InvalidTokenException;
import io.seqsync.ingress.auth.Operator;
import io.seqsync.ingress.auth.TokenVerifier;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.Anyone;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.Authenticator;
import io.seqsync.ingress.http.Endpoint;
import io.seqsync.ingress.http.ErrorHandling;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.util.Date;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Who may see the ops dashboard: the bearer of an operator's token ({@link TokenVerifier#operator}),
 * sent as {@code Authorization: Bearer} (scripts) or held in the {@code seqsync_ops} cookie that
 * signing in on the page sets (browsers, which cannot add a header to a page load). No token or
 * one that is not valid: 401; a valid token that is not an operator's: 403. The cookie is
 * HttpOnly (the page's scripts never read it), SameSite=Strict (no other site's page sends it),
 * scoped to {@code /ops} and lives as long as its token. Thread-safe.
 */
public final class OpsAccess implements Authenticator<Operator> {
  public static final String COOKIE = "seqsync_ops";
  private static final String SIGN_IN_PAGE = "/ops/sign-in.html";

  private final TokenVerifier tokens;
  private final String signInPage;

  public OpsAccess(TokenVerifier tokens) {
    this.tokens = tokens;
    this.signInPage = resource(SIGN_IN_PAGE);
  }

  /** The operator a request's token names (a bearer header, else the cookie); a 401 or 403 for anyone else. */
  @Override
  public Operator authenticate(ApiRequest request) {
    return operator(token(request.header("Authorization"), request.cookie(COOKIE)));
  }

  /** An endpoint of the dashboard's data: every answer it gives, errors too, is not to be cached. */
  public static Endpoint<Operator> api(Endpoint<Operator> endpoint) {
    return (operator, request) -> {
      CompletableFuture<Answer> answer;
      try {
        answer = endpoint.answer(operator, request);
      } catch (RuntimeException failure) {
        answer = CompletableFuture.failedFuture(failure);
      }
      return answer.handle((done, failure) ->
          (failure == null ? done : ErrorHandling.answer(failure, request)).withHeader("Cache-Control", "no-store"));
    };
  }

  /** A page for operators only; others get the sign-in page with the error's status. */
  public Endpoint<Anyone> page(Endpoint<Operator> page) {
    return (anyone, request) -> {
      Operator operator;
      try {
        operator = authenticate(request);
      } catch (ApiException e) {
        return CompletableFuture.completedFuture(signInPage(e));
      }
      return page.answer(operator, request);
    };
  }

  /** POST /ops/session (form field {@code token}): sets the cookie and goes to the dashboard. */
  public Answer signIn(Anyone caller, ApiRequest request) {
    String token = Optional.ofNullable(request.formParam("token")).map(String::strip).orElse("");
    try {
      if (token.isEmpty()) {
        throw ApiException.unauthorized("missing_token", "paste an operator's token");
      }
      operator(token);
    } catch (ApiException e) {
      return signInPage(e);
    }
    // As Javalin's redirect answered: its default content type, and a word.
    return new Answer(303, null, "Redirected".getBytes(StandardCharsets.UTF_8),
        Map.of("Set-Cookie", cookie(request, token, tokenLifetimeSeconds(token)), "Location", "/ops/"));
  }

  /** DELETE /ops/session: forgets the cookie. */
  public Answer signOut(Anyone caller, ApiRequest request) {
    return new Answer(204, null, new byte[0], Map.of("Set-Cookie", cookie(request, "", 0)));
  }

  private static String token(String header, String cookie) {
    return header == null && cookie != null && !cookie.isBlank() ? cookie : Authentication.bearerToken(header);
  }

  private Operator operator(String token) {
    try {
      return tokens.operator(token).orElseThrow(() -> ApiException.forbidden("not_an_operator",
          "the token is valid but not an operator's (see docs/operations.md)"));
    } catch (InvalidTokenException e) {
      throw ApiException.unauthorized(e.code(), e.getMessage());
    }
  }

  private Answer signInPage(ApiException error) {
    String page = signInPage.replace("{{message}}", error.status() == 401 && error.code().equals("missing_token")
        ? "" : escape(error.getMessage()));
    return new Answer(error.status(), "text/html; charset=utf-8", page.getBytes(StandardCharsets.UTF_8),
        Map.of("Cache-Control", "no-store"));
  }

  private static String cookie(ApiRequest request, String token, long maxAgeSeconds) {
    boolean https = "https".equalsIgnoreCase(request.header("X-Forwarded-Proto")) || "https".equals(request.scheme());
    return COOKIE + "=" + token + "; Path=/ops; Max-Age=" + maxAgeSeconds + "; HttpOnly; SameSite=Strict"
        + (https ? "; Secure" : "");
  }

  // The token verified already; its exp bounds the cookie's life.
  private static long tokenLifetimeSeconds(String token) {
    try {
      Date expiry = JWTParser.parse(token).getJWTClaimsSet().getExpirationTime();
      return expiry == null ? 0 : Math.max(0, (expiry.getTime() - System.currentTimeMillis()) / 1000);
    } catch (ParseException e) {
      return 0;
    }
  }

  static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  static String resource(String path) {
    byte[] bytes = bytes(path);
    if (bytes == null) {
      throw new IllegalStateException("missing resource " + path);
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** A class path resource's bytes; null when there is none. */
  static byte[] bytes(String path) {
    try (InputStream in = OpsAccess.class.getResourceAsStream(path)) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
