package io.seqsync.config;

import java.util.List;
import java.util.Locale;

/**
 * What an attachment may be: at most {@code maxBytes}, of one of {@code types} (media types,
 * lowercase). The ingress refuses an upload or a send beyond them; the sequencer, the last line,
 * dead-letters a send that names such an attachment. Immutable.
 */
public record AttachmentLimits(int maxBytes, List<String> types) {
  public AttachmentLimits {
    types = types.stream().map(type -> type.strip().toLowerCase(Locale.ROOT)).filter(type -> !type.isEmpty()).toList();
    if (maxBytes <= 0) {
      throw new ConfigException("attachments.max-bytes must be positive");
    }
    if (types.isEmpty()) {
      throw new ConfigException("attachments.types must name at least one media type");
    }
    // Served from the object store's origin, an SVG or HTML file would run its scripts there.
    if (types.stream().anyMatch(type -> !type.matches("[a-z0-9.+-]+/[a-z0-9.+-]+") || type.contains("svg")
        || type.contains("html") || type.contains("javascript"))) {
      throw new ConfigException("attachments.types takes media types such as image/png, never scriptable ones"
          + " (svg, html, javascript): " + types);
    }
  }

  /** The default: common images, PDF, plain text and zip archives, 25 MiB. */
  public static final List<String> DEFAULT_TYPES = List.of("image/png", "image/jpeg", "image/gif", "image/webp",
      "application/pdf", "text/plain", "application/zip");
  public static final int DEFAULT_MAX_BYTES = 25 * 1024 * 1024;
}
