package io.seqsync.ingress;

import io.seqsync.events.ConvId;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * {@code GET /v1/conversations/{convId}/messages}, the hottest route there is, served by a Jetty
 * handler in front of Javalin; every other request passes through to Javalin. The contract is the
 * route's in API.md, as Javalin served it: the bearer token, the fetch guard (device rate, lanes),
 * membership, the page as {@link FetchedJson} writes it, gzip for a client that accepts it (from
 * 1,500 bytes, as Javalin), errors as {@code {"error":{...}}} by {@link ErrorHandling}, the
 * request timed in {@code http.server.requests}. What it saves is Jetty's servlet layer and
 * Javalin's routing and context: a quarter to a third of the ingress's CPU per page (docs/benchmarks.md).
 * Thread-safe; a request runs on the Jetty thread that received it, as Javalin's do.
 */
final class PageRoute extends Handler.Wrapper {
  static final String TEMPLATE = "/v1/conversations/{convId}/messages";
  private static final String PREFIX = "/v1/conversations/";
  private static final String SUFFIX = "/messages";
  private static final String JSON = "application/json";
  private static final int GZIP_FROM_BYTES = 1500;

  private final Authentication authentication;
  private final AccessControl access;
  private final FetchGuard guard;
  private final FetchService fetches;
  private final HttpMetrics metrics;

  PageRoute(Authentication authentication, AccessControl access, FetchGuard guard, FetchService fetches,
      HttpMetrics metrics) {
    this.authentication = authentication;
    this.access = access;
    this.guard = guard;
    this.fetches = fetches;
    this.metrics = metrics;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String path = Request.getPathInContext(request);
    // HEAD too, as Javalin answers it for a GET route (Jetty sends the headers only).
    String method = request.getMethod();
    String convId = HttpMethod.GET.is(method) || HttpMethod.HEAD.is(method) ? convIdOf(path) : null;
    if (convId == null) {
      return super.handle(request, response, callback);
    }
    long start = System.nanoTime();
    int status = 200;
    byte[] body;
    boolean gzip = acceptsGzip(request);
    try {
      body = page(request, convId);
    } catch (Exception failure) {
      ApiException error = ErrorHandling.answer(failure, method, path);
      status = error.status();
      ErrorHandling.headers(error, (name, value) -> response.getHeaders().put(name, value));
      body = ErrorHandling.body(error);
      gzip = false;
    }
    answer(response, callback, status, body, gzip);
    metrics.record(method, TEMPLATE, status, System.nanoTime() - start);
    return true;
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

  private static void answer(Response response, Callback callback, int status, byte[] body, boolean gzip)
      throws IOException {
    byte[] bytes = body;
    if (gzip && body.length >= GZIP_FROM_BYTES) {
      ByteArrayOutputStream compressed = new ByteArrayOutputStream(body.length / 4);
      try (OutputStream out = new GZIPOutputStream(compressed)) {
        out.write(body);
      }
      bytes = compressed.toByteArray();
      response.getHeaders().put(HttpHeader.CONTENT_ENCODING, "gzip");
      response.getHeaders().put(HttpHeader.VARY, HttpHeader.ACCEPT_ENCODING.asString());
    }
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, JSON);
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
    response.write(true, ByteBuffer.wrap(bytes), callback);
  }
}
