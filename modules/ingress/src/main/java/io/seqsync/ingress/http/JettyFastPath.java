package io.seqsync.ingress.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import java.util.zip.GZIPOutputStream;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * The hottest path there is ({@code GET} and {@code POST} of one template, a page of messages and
 * a send), served by a Jetty handler in front of Javalin; every other request passes through to
 * Javalin. A thin adapter like {@link JavalinRoutes}: the same {@link Route}s (their authentication,
 * endpoint and JSON errors), timed in the same {@code http.server.requests}; what it saves is
 * Jetty's servlet layer and Javalin's routing and context, a quarter to a third of the ingress's
 * CPU per page (docs/design.md, "Pages and sends: a Jetty handler in front of Javalin"). What it
 * does itself is what Javalin did for these routes: a trailing slash served, {@code HEAD} for the
 * {@code GET}, gzip for a client that accepts it (from 1,500 bytes, as Javalin), the body read
 * whole within the size limit before any answer, so that a client still writing is never cut off.
 *
 * <p>Threads: the handler is {@code NON_BLOCKING}, so Jetty calls it on the selector thread that
 * read the request. A {@code POST} whose body has arrived is served right there when
 * {@code postWithoutBlocking} says it cannot block (a send to a direct conversation while the
 * publisher has room: no database, no wait), which saves handing it to a pool thread and waking
 * it. Everything else, which may block, is handed to Jetty's pool. An answer is written on the
 * thread that completes it (a send's: its reply's). Thread-safe.
 */
public final class JettyFastPath extends Handler.Wrapper {
  private static final int GZIP_FROM_BYTES = 1500;
  private static final long DROPPED_BODY_BYTES = 16L * 1024 * 1024;

  private final String template;
  private final String prefix;
  private final String param;
  private final String suffix;
  private final Route<?> get;
  private final Route<?> post;
  private final Predicate<String> postWithoutBlocking;
  private final int maxRequestBytes;
  private final HttpMetrics metrics;

  /**
   * {@code template}: a path with one parameter, such as {@code /v1/conversations/{convId}/messages};
   * {@code postWithoutBlocking}: whether a {@code POST} with this parameter can be served on the
   * selector thread.
   */
  public JettyFastPath(String template, Route<?> get, Route<?> post, Predicate<String> postWithoutBlocking,
      int maxRequestBytes, HttpMetrics metrics) {
    int open = template.indexOf('{');
    int close = template.indexOf('}');
    if (open < 1 || close < open || template.indexOf('{', close) >= 0) {
      throw new IllegalArgumentException("one {parameter} expected in " + template);
    }
    this.template = template;
    this.prefix = template.substring(0, open);
    this.param = template.substring(open + 1, close);
    this.suffix = template.substring(close + 1);
    this.get = get;
    this.post = post;
    this.postWithoutBlocking = postWithoutBlocking;
    this.maxRequestBytes = maxRequestBytes;
    this.metrics = metrics;
  }

  @Override
  public InvocationType getInvocationType() {
    return InvocationType.NON_BLOCKING;
  }

  /**
   * On the selector thread: a {@code POST} that cannot block is served here, everything else goes
   * to the pool. A request of this route is timed from here, its wait for a pool thread included.
   */
  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    String method = request.getMethod();
    // HEAD too, as Javalin answers it for a GET route (Jetty sends the headers only).
    boolean page = HttpMethod.GET.is(method) || HttpMethod.HEAD.is(method);
    String value = page || HttpMethod.POST.is(method) ? paramOf(Request.getPathInContext(request)) : null;
    Exchange exchange = value == null ? null : new Exchange(request, response, callback, value, System.nanoTime());
    if (exchange != null && !page && postWithoutBlocking.test(value)) {
      post(exchange, true);
      return true;
    }
    request.getComponents().getThreadPool().execute(() -> {
      try {
        if (exchange == null) {
          passOn(request, response, callback);
        } else if (page) {
          get.serve(exchange).thenAccept(answer -> exchange.answer(answer, acceptsGzip(request)));
        } else {
          post(exchange, false);
        }
      } catch (Throwable failure) { // as Jetty answers a handler that throws
        Response.writeError(request, response, callback, failure);
      }
    });
    return true;
  }

  /** Whatever Javalin serves; a 404 when nothing does. */
  private void passOn(Request request, Response response, Callback callback) throws Exception {
    if (!super.handle(request, response, callback)) {
      Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404);
    }
  }

  /**
   * Reads the body (within the size limit, before any answer, so that the client is never cut off
   * while writing it), then serves the route; answered when it completes. On the selector thread
   * only a body that has arrived is served from there: one still on its way is served from the pool
   * when it has.
   */
  private void post(Exchange exchange, boolean onSelector) {
    Request request = exchange.request;
    CompletableFuture<byte[]> body = request.getLength() > maxRequestBytes
        ? tooLargeBody(request)
        : Content.Source.asByteArrayAsync(request, maxRequestBytes);
    BiConsumer<byte[], Throwable> serve = (bytes, unreadable) -> {
      exchange.body = bytes;
      exchange.unreadable = unreadable;
      post.serve(exchange).thenAccept(answer -> exchange.answer(answer, false));
    };
    if (onSelector && !body.isDone()) {
      body.whenCompleteAsync(serve, request.getComponents().getThreadPool());
    } else {
      body.whenComplete(serve);
    }
  }

  /**
   * A 413 once the body declared too large has been read and dropped: answered while the client
   * still writes, Jetty would close the connection with bytes unread and the client could lose the
   * answer to the reset. A body too large even to drop is refused at once.
   */
  private CompletableFuture<byte[]> tooLargeBody(Request request) {
    CompletableFuture<byte[]> refused = new CompletableFuture<>();
    if (request.getLength() > DROPPED_BODY_BYTES) {
      refused.completeExceptionally(tooLarge());
    } else {
      Content.Source.consumeAll(request, Callback.from(() -> refused.completeExceptionally(tooLarge()),
          unreadable -> refused.completeExceptionally(tooLarge())));
    }
    return refused;
  }

  private ApiException tooLarge() {
    return ApiException.tooLarge("too_large", "the request body exceeds " + maxRequestBytes + " bytes");
  }

  /** The parameter's value in a path of this route (a trailing slash allowed, as Javalin does), else null. */
  String paramOf(String path) {
    if (path == null || !path.startsWith(prefix)) {
      return null;
    }
    int end = path.endsWith("/") ? path.length() - 1 : path.length();
    int valueEnd = end - suffix.length();
    if (valueEnd <= prefix.length() || !path.startsWith(suffix, valueEnd)
        || path.indexOf('/', prefix.length()) != (suffix.isEmpty() ? -1 : valueEnd)) {
      return null;
    }
    return path.substring(prefix.length(), valueEnd);
  }

  private static boolean acceptsGzip(Request request) {
    String accepted = request.getHeaders().get(HttpHeader.ACCEPT_ENCODING);
    return accepted != null && accepted.contains("gzip");
  }

  /** One request of this route, as an endpoint reads it; answered once, with its status timed. */
  private final class Exchange implements ApiRequest {
    final Request request;
    final Response response;
    final Callback callback;
    final String value;
    final long start;
    // Set before the route is served, on the thread that serves it.
    byte[] body = new byte[0];
    Throwable unreadable;

    Exchange(Request request, Response response, Callback callback, String value, long start) {
      this.request = request;
      this.response = response;
      this.callback = callback;
      this.value = value;
      this.start = start;
    }

    @Override
    public String method() {
      return request.getMethod();
    }

    @Override
    public String path() {
      return Request.getPathInContext(request);
    }

    @Override
    public String pathParam(String name) {
      if (!name.equals(param)) {
        throw new IllegalArgumentException("no path parameter " + name + " in " + template);
      }
      return value;
    }

    @Override
    public Map<String, List<String>> queryParams() {
      Fields fields;
      try {
        fields = Request.extractQueryParameters(request);
      } catch (RuntimeException malformed) {
        throw ApiException.badRequest("invalid_parameter", "the query string is not valid URL encoding");
      }
      Map<String, List<String>> query = new HashMap<>();
      for (Fields.Field field : fields) {
        query.put(field.getName(), new ArrayList<>(field.getValues()));
      }
      return query;
    }

    @Override
    public String header(String name) {
      return request.getHeaders().get(name);
    }

    @Override
    public String cookie(String name) {
      for (HttpCookie cookie : Request.getCookies(request)) {
        if (cookie.getName().equals(name)) {
          return cookie.getValue();
        }
      }
      return null;
    }

    /**
     * The body as read before the route was served; when it could not be read, the 413 (most
     * likely: a chunked body past the limit) or 400 (a client that went away while writing does
     * not read whichever answer it gets).
     */
    @Override
    public byte[] body() {
      if (unreadable != null) {
        throw unreadable instanceof ApiException api ? api : request.getLength() < 0 ? tooLarge()
            : ApiException.badRequest("invalid_body", "the body cannot be read");
      }
      return body;
    }

    @Override
    public String scheme() {
      return request.getHttpURI().getScheme();
    }

    void answer(Answer answer, boolean gzip) {
      int status = answer.status();
      try {
        byte[] bytes = answer.body();
        answer.headers().forEach((name, value) -> response.getHeaders().put(name, value));
        if (gzip && status < 400 && bytes.length >= GZIP_FROM_BYTES) {
          bytes = gzip(bytes);
          response.getHeaders().put(HttpHeader.CONTENT_ENCODING, "gzip");
          response.getHeaders().put(HttpHeader.VARY, HttpHeader.ACCEPT_ENCODING.asString());
        }
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, answer.contentType());
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
      } catch (IOException | RuntimeException e) {
        callback.failed(e);
      }
      metrics.record(request.getMethod(), template, status, System.nanoTime() - start);
    }
  }

  private static byte[] gzip(byte[] body) throws IOException {
    ByteArrayOutputStream compressed = new ByteArrayOutputStream(body.length / 4);
    try (OutputStream out = new GZIPOutputStream(compressed)) {
      out.write(body);
    }
    return compressed.toByteArray();
  }
}
