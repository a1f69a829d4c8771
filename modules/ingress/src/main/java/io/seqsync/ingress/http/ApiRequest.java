package io.seqsync.ingress.http;

import java.util.List;
import java.util.Map;

/**
 * A request as an endpoint reads it, whichever server read it off the wire: Javalin
 * ({@link JavalinRoutes}) or the Jetty fast path ({@link JettyFastPath}). Parts are read when asked
 * for, so an endpoint that needs no query or body costs nothing for them.
 */
public interface ApiRequest {
  /** {@code GET}, {@code POST}, ... */
  String method();

  /** The path, for error logs and metrics. */
  String path();

  /** A named segment of the route's path template ({@code {convId}}), as it came. */
  String pathParam(String name);

  /** Every query parameter with its values; a 400 {@code invalid_parameter} when the query is not valid URL encoding. */
  Map<String, List<String>> queryParams();

  /** The first value of a query parameter, or null. */
  default String queryParam(String name) {
    List<String> values = queryParams().get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  /** A header's value, or null. */
  String header(String name);

  /** A cookie's value, or null. */
  String cookie(String name);

  /** The whole body (within the server's request size limit). */
  byte[] body();
}
