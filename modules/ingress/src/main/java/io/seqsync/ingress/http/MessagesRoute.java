package io.seqsync.ingress.http;

import io.seqsync.ingress.api.AccessControl;
import io.seqsync.ingress.auth.Authentication;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.commands.CommandPublisher;
import io.seqsync.ingress.api.FetchGuard;
import io.seqsync.ingress.api.FetchRequest;
import io.seqsync.ingress.api.FetchService;
import io.seqsync.ingress.api.FetchedJson;
import io.seqsync.ingress.IngressSettings;
import io.seqsync.ingress.api.Lane;
import io.seqsync.ingress.api.MessageEndpoints;
import io.seqsync.ingress.api.Views;

import io.seqsync.events.ConvId;
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
import java.util.zip.GZIPOutputStream;
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
 * {@code GET} and {@code POST /v1/conversations/{convId}/messages}, the hottest routes there are
 * (a page of messages, a send), served by a Jetty handler in front of Javalin; every other request
 * passes through to Javalin. The contract is the routes' in API.md, as Javalin served them: the
 * bearer token; for a page the fetch guard (device rate, lanes), membership, the page as
 * {@link FetchedJson} writes it, gzip for a client that accepts it (from 1,500 bytes, as Javalin);
 * for a send the body within {@link IngressSettings#maxRequestBytes}, then {@link MessageEndpoints#send};
 * errors as {@code {"error":{...}}} by {@link ErrorHandling}, every request timed in
 * {@code http.server.requests}. What it saves is Jetty's servlet layer and Javalin's routing and
 * context: a quarter to a third of the ingress's CPU per page (docs/benchmarks-history.md).
 *
 * <p>Threads: the handler is {@code NON_BLOCKING}, so Jetty calls it on the selector thread that
 * read the request. A send to a direct conversation whose body has arrived is submitted right there
 * while the publisher cannot block ({@link CommandPublisher#publishesWithoutBlocking}): it needs no
 * database (the id names both members) and saves handing the request to a pool thread and waking
 * it. Everything else, which may block (pages, group sends, every other route), is handed to
 * Jetty's pool. A send is answered on the thread that completes it (its reply's). Thread-safe.
 */
public final class MessagesRoute extends Handler.Wrapper {
  public static final String TEMPLATE = "/v1/conversations/{convId}/messages";
  private static final String PREFIX = "/v1/conversations/";
  private static final String SUFFIX = "/messages";
  private static final String JSON = "application/json";
  private static final int GZIP_FROM_BYTES = 1500;
  private static final long DROPPED_BODY_BYTES = 16L * 1024 * 1024;

  private final Authentication authentication;
  private final AccessControl access;
  private final FetchGuard guard;
  private final FetchService fetches;
  private final MessageEndpoints sends;
  private final CommandPublisher publisher;
  private final int maxRequestBytes;
  private final HttpMetrics metrics;

  public MessagesRoute(Authentication authentication, AccessControl access, FetchGuard guard, FetchService fetches,
      MessageEndpoints sends, CommandPublisher publisher, int maxRequestBytes, HttpMetrics metrics) {
    this.authentication = authentication;
    this.access = access;
    this.guard = guard;
    this.fetches = fetches;
    this.sends = sends;
    this.publisher = publisher;
    this.maxRequestBytes = maxRequestBytes;
    this.metrics = metrics;
  }

  @Override
  public InvocationType getInvocationType() {
    return InvocationType.NON_BLOCKING;
  }

  /**
   * On the selector thread: a direct send is submitted here, everything else goes to the pool. A
   * request of this route is timed from here, its wait for a pool thread included.
   */
  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    String method = request.getMethod();
    // HEAD too, as Javalin answers it for a GET route (Jetty sends the headers only).
    boolean page = HttpMethod.GET.is(method) || HttpMethod.HEAD.is(method);
    String convId = page || HttpMethod.POST.is(method) ? convIdOf(Request.getPathInContext(request)) : null;
    Exchange exchange = convId == null ? null : new Exchange(request, response, callback, System.nanoTime());
    if (exchange != null && !page && isDirect(convId) && publisher.publishesWithoutBlocking()) {
      send(exchange, convId, true);
      return true;
    }
    request.getComponents().getThreadPool().execute(() -> {
      try {
        if (exchange == null) {
          passOn(request, response, callback);
        } else if (page) {
          servePage(exchange, convId);
        } else {
          send(exchange, convId, false);
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

  private void servePage(Exchange exchange, String convId) {
    byte[] body;
    try {
      body = page(exchange.request, convId);
    } catch (Exception failure) {
      exchange.fail(failure);
      return;
    }
    // Answered outside the try: a failure while writing must not be answered a second time.
    exchange.answer(200, body, acceptsGzip(exchange.request));
  }

  /**
   * Reads the body (within the size limit, before any answer, so that the client is never cut off
   * while writing it), checks the token first (as Javalin's before-handler did), then sends;
   * answered when the send completes. On the selector thread only a body that has arrived is sent
   * from there: one still on its way is sent from the pool when it has.
   */
  private void send(Exchange exchange, String convId, boolean onSelector) {
    Request request = exchange.request;
    CompletableFuture<byte[]> body = request.getLength() > maxRequestBytes
        ? tooLargeBody(request)
        : Content.Source.asByteArrayAsync(request, maxRequestBytes);
    BiConsumer<byte[], Throwable> submit = (bytes, unreadable) -> {
      try {
        Caller caller = authentication.verify(request.getHeaders().get(HttpHeader.AUTHORIZATION), null);
        // A chunked body that cannot be read has most likely passed the limit; a client that went
        // away while writing does not read whichever answer it gets.
        if (unreadable != null) {
          throw unreadable instanceof ApiException api ? api : request.getLength() < 0 ? tooLarge()
              : ApiException.badRequest("invalid_body", "the body cannot be read");
        }
        sends.send(caller, convId, bytes).whenComplete((answer, failure) -> {
          if (failure != null) {
            exchange.fail(failure);
          } else {
            exchange.answer(answer.status(), Json.bytes(answer.view()), false);
          }
        });
      } catch (RuntimeException failure) {
        exchange.fail(failure);
      }
    };
    if (onSelector && !body.isDone()) {
      body.whenCompleteAsync(submit, request.getComponents().getThreadPool());
    } else {
      body.whenComplete(submit);
    }
  }

  private static boolean isDirect(String convId) {
    return ConvId.parse(convId).map(id -> id.kind() == ConvId.Kind.DIRECT).orElse(false);
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

  /** The conversation id of a path of this route (a trailing slash allowed, as Javalin does), else null. */
  static String convIdOf(String path) {
    if (path == null || !path.startsWith(PREFIX)) {
      return null;
    }
    int end = path.endsWith("/") ? path.length() - 1 : path.length();
    int idEnd = end - SUFFIX.length();
    if (idEnd <= PREFIX.length() || !path.startsWith(SUFFIX, idEnd) || path.indexOf('/', PREFIX.length()) != idEnd) {
      return null;
    }
    return path.substring(PREFIX.length(), idEnd);
  }

  private byte[] page(Request request, String convIdText) throws IOException {
    Caller caller = authentication.verify(request.getHeaders().get(HttpHeader.AUTHORIZATION), null);
    ConvId convId = AccessControl.convId(convIdText);
    FetchRequest fetch = FetchRequest.parse(query(request));
    try (Lane.Permit running = guard.admitPage(caller, fetch.mode())) {
      long floor = access.requireMember(caller, convId);
      Views.Fetched page = fetches.fetch(caller, convId, fetch, floor);
      ByteArrayOutputStream body = new ByteArrayOutputStream(16 * 1024);
      FetchedJson.write(page, body);
      return body.toByteArray();
    }
  }

  private static Map<String, List<String>> query(Request request) {
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

  private static boolean acceptsGzip(Request request) {
    String accepted = request.getHeaders().get(HttpHeader.ACCEPT_ENCODING);
    return accepted != null && accepted.contains("gzip");
  }

  /** One request of this route: answered once, with its status timed. */
  private final class Exchange {
    final Request request;
    final Response response;
    final Callback callback;
    final long start;

    Exchange(Request request, Response response, Callback callback, long start) {
      this.request = request;
      this.response = response;
      this.callback = callback;
      this.start = start;
    }

    void fail(Throwable failure) {
      ApiException error = ErrorHandling.answer(failure, request.getMethod(), Request.getPathInContext(request));
      ErrorHandling.headers(error, (name, value) -> response.getHeaders().put(name, value));
      answer(error.status(), ErrorHandling.body(error), false);
    }

    void answer(int status, byte[] body, boolean gzip) {
      try {
        byte[] bytes = body;
        if (gzip && body.length >= GZIP_FROM_BYTES) {
          bytes = gzip(body);
          response.getHeaders().put(HttpHeader.CONTENT_ENCODING, "gzip");
          response.getHeaders().put(HttpHeader.VARY, HttpHeader.ACCEPT_ENCODING.asString());
        }
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, JSON);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
      } catch (IOException | RuntimeException e) {
        callback.failed(e);
      }
      metrics.record(request.getMethod(), TEMPLATE, status, System.nanoTime() - start);
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
