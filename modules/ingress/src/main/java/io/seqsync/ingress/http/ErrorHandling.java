package io.seqsync.ingress.http;


import io.javalin.config.RoutesConfig;
import io.javalin.http.ExceptionHandler;
import io.javalin.http.HttpResponseException;
import io.seqsync.store.StatementTimeouts;
import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.jdbi.v3.core.ConnectionException;
import org.jdbi.v3.core.JdbiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * Turns every failure into {@code {"error":{"code","message"}}} with a fitting status: the API's
 * own errors as thrown, Javalin's (unknown route 404, wrong method 405, body too large 413, ...)
 * with their status, a database or Redis that cannot be reached 503, a statement PostgreSQL
 * cancelled at the statement timeout 503 {@code query_timeout}, anything else 500 (a bug:
 * logged, and never caused by what a client sends, which is validated first).
 */
public final class ErrorHandling {
  private static final Logger log = LoggerFactory.getLogger(ErrorHandling.class);

  private ErrorHandling() {}

  /** Javalin's own failures (unknown route 404, wrong method 405, body too large 413, ...) as the same JSON errors. */
  public static void install(RoutesConfig routes) {
    ExceptionHandler<Exception> handler =
        (e, ctx) -> JavalinRoutes.write(ctx, answer(error(e, ctx.method().name(), ctx.path())));
    // Javalin answers its own HttpResponseExceptions (404, 413, ...) itself unless that type has a handler.
    routes.exception(HttpResponseException.class, handler::handle);
    routes.exception(Exception.class, handler);
  }

  /** The error answer to {@code request}'s failure: its JSON body and headers. */
  public static Answer answer(Throwable failure, ApiRequest request) {
    return answer(error(failure, request.method(), request.path()));
  }

  /** {@code {"error":{"code","message"}}} with the error's status, WWW-Authenticate on a 401 and its Retry-After. */
  public static Answer answer(ApiException error) {
    Answer answer = Answer.json(error.status(), ErrorBody.of(error.code(), error.getMessage()));
    if (error.status() == 401) {
      answer = answer.withHeader("WWW-Authenticate", "Bearer");
    }
    if (error.retryAfterSeconds() > 0) {
      answer = answer.withHeader("Retry-After", Long.toString(error.retryAfterSeconds()));
    }
    return answer;
  }

  /**
   * The error answer to a failure of {@code method path}: the API's own error as thrown, Javalin's
   * with its status, 503 for a database or Redis that cannot be reached or a statement past its
   * timeout, 500 (logged) for the rest.
   */
  public static ApiException error(Throwable failure, String method, String path) {
    Throwable error = unwrap(failure);
    if (error instanceof ApiException api) {
      return api;
    }
    if (error instanceof HttpResponseException http) {
      String code = codeOf(http.getStatus());
      String message = http.getMessage() == null || http.getMessage().isBlank() ? code.replace('_', ' ') : http.getMessage();
      return new ApiException(http.getStatus(), code, message);
    }
    if (error instanceof JdbiException && isConnectionFailure(error)) {
      log.warn("PostgreSQL unavailable for {} {}: {}", method, path, error.toString());
      return ApiException.unavailable("database_unavailable", "PostgreSQL is unavailable; retry later");
    }
    if (error instanceof JdbiException && StatementTimeouts.isTimeout(error)) {
      log.warn("statement timeout in {} {}: {}", method, path, error.getMessage());
      return ApiException.retryLater(503, "query_timeout", "the database did not answer in time; retry", 1);
    }
    if (error instanceof JedisConnectionException) {
      log.warn("Redis unavailable for {} {}: {}", method, path, error.toString());
      return ApiException.unavailable("redis_unavailable", "Redis is unavailable; retry later");
    }
    log.error("unexpected failure in {} {}", method, path, error);
    return new ApiException(500, "internal", "unexpected server error");
  }

  private static Throwable unwrap(Throwable error) {
    Throwable current = error;
    while ((current instanceof CompletionException || current instanceof ExecutionException)
        && current.getCause() != null) {
      current = current.getCause();
    }
    return current;
  }

  private static boolean isConnectionFailure(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof ConnectionException || cause instanceof SQLTransientConnectionException
          || cause instanceof SQLNonTransientConnectionException || cause instanceof ConnectException) {
        return true;
      }
      if (cause instanceof SQLException sql && sql.getSQLState() != null
          && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P"))) {
        return true;
      }
    }
    return false;
  }

  static String codeOf(int status) {
    return switch (status) {
      case 400 -> "bad_request";
      case 401 -> "unauthorized";
      case 403 -> "forbidden";
      case 404 -> "not_found";
      case 405 -> "method_not_allowed";
      case 409 -> "conflict";
      case 413 -> "too_large";
      case 414 -> "uri_too_long";
      case 415 -> "unsupported_media_type";
      case 431 -> "headers_too_large";
      case 429 -> "rate_limited";
      case 503 -> "unavailable";
      default -> status >= 500 ? "internal" : "bad_request";
    };
  }
}
