package io.seqsync.ingress.web;

import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.Anyone;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The web chat client at {@code /}: its files ({@code clients/web}) and the library it runs
 * ({@code clients/js/src}, the npm package's own source), which the build copies into this jar
 * under {@code web/} and {@code web/lib/}: one copy of the code, served as it is (ES modules, no
 * bundler). Only flat file names of known types are served; anything else is a 404.
 */
public final class WebClientFiles {
  public static final String INDEX = "/";
  public static final String FILES = "/web/{file}";
  public static final String LIBRARY = "/web/lib/{file}";

  // The offline client's service worker (clients/web/sw.js), registered for the scope "/".
  private static final String SERVICE_WORKER = "web/sw.js";
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}\\.[a-z]{1,4}");
  private static final Map<String, String> TYPES = Map.of(
      "html", "text/html; charset=utf-8", "js", "text/javascript; charset=utf-8", "css", "text/css; charset=utf-8",
      "svg", "image/svg+xml", "png", "image/png", "ico", "image/x-icon", "json", "application/json");
  // The page loads only its own scripts and styles and talks only to this server, and to the object
  // store of attachments (uploads, image previews) when there is one.
  private static final String POLICY = "default-src 'self'; connect-src 'self' ws: wss:%s; img-src 'self' data:%s;"
      + " object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

  private final String policy;

  public WebClientFiles() {
    this(java.util.Optional.empty());
  }

  /** {@code objectStore}: the origin of attachments' presigned URLs ({@code http://127.0.0.1:9000}). */
  public WebClientFiles(java.util.Optional<String> objectStore) {
    String origin = objectStore.map(value -> " " + value).orElse("");
    this.policy = POLICY.formatted(origin, origin);
  }

  private final ClassLoader loader = WebClientFiles.class.getClassLoader();
  // Only files that exist are kept, so requests for made-up names cannot grow it.
  private final Map<String, byte[]> files = new ConcurrentHashMap<>();

  /** GET /: the page. */
  public Answer index(Anyone caller, ApiRequest request) {
    return serve("index.html", "web/index.html");
  }

  /** GET /web/{file}: the client's scripts and styles. */
  public Answer file(Anyone caller, ApiRequest request) {
    return serve(request.pathParam("file"), "web/" + request.pathParam("file"));
  }

  /** GET /web/lib/{file}: the library's modules. */
  public Answer library(Anyone caller, ApiRequest request) {
    return serve(request.pathParam("file"), "web/lib/" + request.pathParam("file"));
  }

  private Answer serve(String name, String resource) {
    String type = NAME.matcher(name).matches() ? TYPES.get(name.substring(name.lastIndexOf('.') + 1)) : null;
    byte[] bytes = type == null ? null : cached(resource);
    if (bytes == null) {
      throw ApiException.notFound("not_found", "no such file: " + name);
    }
    Map<String, String> headers = Map.of("Cache-Control", "no-cache", "X-Content-Type-Options", "nosniff",
        "Content-Security-Policy", policy);
    if (resource.equals(SERVICE_WORKER)) {
      // The worker lives with the client's files but serves the whole page, "/" included (its scope).
      headers = new HashMap<>(headers);
      headers.put("Service-Worker-Allowed", "/");
    }
    return new Answer(200, type, bytes, headers);
  }

  private byte[] cached(String resource) {
    byte[] bytes = files.get(resource);
    if (bytes == null) {
      bytes = read(resource);
      if (bytes != null) {
        files.put(resource, bytes);
      }
    }
    return bytes;
  }

  private byte[] read(String resource) {
    try (InputStream in = loader.getResourceAsStream(resource)) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }
}
