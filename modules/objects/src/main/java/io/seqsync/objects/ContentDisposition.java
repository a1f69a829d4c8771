package io.seqsync.objects;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** A file name in a Content-Disposition header's {@code filename*} (RFC 6266, RFC 5987): percent-encoded UTF-8. */
final class ContentDisposition {
  private ContentDisposition() {}

  static String encode(String fileName) {
    // URLEncoder is form encoding: a space becomes '+', which RFC 5987 does not read as one.
    return URLEncoder.encode(fileName, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
