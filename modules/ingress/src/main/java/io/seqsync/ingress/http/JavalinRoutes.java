package io.seqsync.ingress.http;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Javalin as a thin adapter over {@link Route}s: it reads the request through {@link ApiRequest},
 * serves the route, and writes the answer (on the request's thread when it is ready at once, else
 * when it is, through {@code ctx.future}). Errors are the same JSON answers as the fast path's; the
 * timing is Javalin's request logger's ({@link HttpMetrics}).
 */
public final class JavalinRoutes {
  private final RoutesConfig routes;

  public JavalinRoutes(RoutesConfig routes) {
    this.routes = routes;
  }

  public JavalinRoutes get(String path, Route<?> route) {
    return add(HandlerType.GET, path, route);
  }

  public JavalinRoutes post(String path, Route<?> route) {
    return add(HandlerType.POST, path, route);
  }

  public JavalinRoutes put(String path, Route<?> route) {
    return add(HandlerType.PUT, path, route);
  }

  public JavalinRoutes delete(String path, Route<?> route) {
    return add(HandlerType.DELETE, path, route);
  }

  private JavalinRoutes add(HandlerType method, String path, Route<?> route) {
    routes.addHttpHandler(method, path, ctx -> serve(ctx, route));
    return this;
  }

  private static void serve(Context ctx, Route<?> route) {
    CompletableFuture<Answer> answer = route.serve(new JavalinRequest(ctx));
    if (answer.isDone()) {
      write(ctx, answer.join());
    } else {
      ctx.future(() -> answer.thenAccept(done -> write(ctx, done)));
    }
  }

  /** Writes {@code answer}; before an error, reads what is left of the body (see {@link #consumeBody}). */
  static void write(Context ctx, Answer answer) {
    if (answer.status() >= 400) {
      consumeBody(ctx);
    }
    answer.headers().forEach(ctx::header);
    if (answer.contentType() != null) { // else Javalin's default
      ctx.contentType(answer.contentType());
    }
    ctx.status(answer.status()).result(answer.body());
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

  /** A Javalin request as an endpoint reads it. */
  private record JavalinRequest(Context ctx) implements ApiRequest {
    @Override
    public String method() {
      return ctx.method().name();
    }

    @Override
    public String path() {
      return ctx.path();
    }

    @Override
    public String pathParam(String name) {
      return ctx.pathParam(name);
    }

    @Override
    public Map<String, List<String>> queryParams() {
      return ctx.queryParamMap();
    }

    @Override
    public String queryParam(String name) {
      return ctx.queryParam(name);
    }

    @Override
    public String header(String name) {
      return ctx.header(name);
    }

    @Override
    public String cookie(String name) {
      return ctx.cookie(name);
    }

    @Override
    public byte[] body() {
      return ctx.bodyAsBytes();
    }

    @Override
    public String scheme() {
      return ctx.scheme();
    }

    @Override
    public String formParam(String name) {
      return ctx.formParam(name);
    }
  }
}
