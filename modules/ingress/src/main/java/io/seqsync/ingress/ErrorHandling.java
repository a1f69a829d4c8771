package io.seqsync.ingress;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
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
 * with their status, a database or Redis that cannot be reached 503, anything else 500 (a bug:
 * logged, and never caused by what a client sends, which is validated first).
 */
final class ErrorHandling {
  private static final Logger log = LoggerFactory.getLogger(ErrorHandling.class);

  private ErrorHandling() {}

  static void install(RoutesConfig routes) {
    routes.exception(ApiException.class, (e, ctx) -> write(ctx, e.status(), e.code(), e.getMessage()));
    routes.exception(HttpResponseException.class, (e, ctx) -> write(ctx, e.getStatus(), codeOf(e.getStatus()),
        e.getMessage() == null || e.getMessage().isBlank() ? codeOf(e.getStatus()).replace('_', ' ') : e.getMessage()));
    routes.exception(Exception.class, (e, ctx) -> handle(unwrap(e), ctx));
  }

  private static void handle(Throwable error, Context ctx) {
    if (error instanceof ApiException api) {
      write(ctx, api.status(), api.code(), api.getMessage());
    } else if (error instanceof HttpResponseException http) {
      write(ctx, http.getStatus(), codeOf(http.getStatus()), http.getMessage());
    } else if (error instanceof JdbiException && isConnectionFailure(error)) {
      log.warn("PostgreSQL unavailable for {} {}: {}", ctx.method(), ctx.path(), error.toString());
      write(ctx, 503, "database_unavailable", "PostgreSQL is unavailable; retry later");
    } else if (error instanceof JedisConnectionException) {
      log.warn("Redis unavailable for {} {}: {}", ctx.method(), ctx.path(), error.toString());
      write(ctx, 503, "redis_unavailable", "Redis is unavailable; retry later");
    } else {
      log.error("unexpected failure in {} {}", ctx.method(), ctx.path(), error);
      write(ctx, 500, "internal", "unexpected server error");
    }
  }

  static void write(Context ctx, int status, String code, String message) {
    consumeBody(ctx);
    if (status == 401) {
      ctx.header("WWW-Authenticate", "Bearer");
    }
    ctx.status(status).json(Views.ErrorBody.of(code, message));
  }

  // An answer sent while the client is still writing its body (a request refused for its path,
  // say) makes Jetty close the connection with bytes unread, and the client may then lose the
  // answer to a reset. So the body is read first, unless it is over the size limit anyway.
  private static void consumeBody(Context ctx) {
    try {
      ctx.bodyAsBytes();
    } catch (RuntimeException tooLargeOrGone) {
      // nothing left to read that the client could still be writing within the limit
    }
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
