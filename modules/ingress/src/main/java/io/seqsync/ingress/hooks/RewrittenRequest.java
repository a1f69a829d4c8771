package io.seqsync.ingress.hooks;

import io.seqsync.ingress.http.ApiRequest;
import java.util.List;
import java.util.Map;

/** A request as it came, but for its body: the send with the content the hook rewrote. */
record RewrittenRequest(ApiRequest original, byte[] body) implements ApiRequest {
  @Override
  public String method() {
    return original.method();
  }

  @Override
  public String path() {
    return original.path();
  }

  @Override
  public String pathParam(String name) {
    return original.pathParam(name);
  }

  @Override
  public Map<String, List<String>> queryParams() {
    return original.queryParams();
  }

  @Override
  public String header(String name) {
    return original.header(name);
  }

  @Override
  public String cookie(String name) {
    return original.cookie(name);
  }

  @Override
  public String scheme() {
    return original.scheme();
  }
}
