package io.seqsync.ingress.http;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
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

  /** {@code http} or {@code https}, as the request came to this server. */
  String scheme();

  /** A field of a form ({@code application/x-www-form-urlencoded}) body, or null. */
  default String formParam(String name) {
    for (String pair : new String(body(), StandardCharsets.UTF_8).split("&")) {
      int equals = pair.indexOf('=');
      String key = URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
      if (key.equals(name)) {
        return equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
      }
    }
    return null;
  }
}
