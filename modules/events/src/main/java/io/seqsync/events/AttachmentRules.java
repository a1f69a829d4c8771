package io.seqsync.events;

import io.seqsync.config.AttachmentLimits;
import io.seqsync.events.model.Attachment;
import io.seqsync.events.model.MessageType;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;

/**
 * What an attachment may be, for the ingress (an upload asked for, a send) and the sequencer (the
 * last line) alike. Its key is in the sender's upload namespace, {@code u/{userId}/} and 32 random
 * hex digits, minted by the ingress: a send naming another user's object is refused, so nobody gets
 * a URL to an object they were not sent. Size and media type are within {@link AttachmentLimits};
 * the name is 1-255 characters without control characters; only images have dimensions (both,
 * 1-100000 pixels). Thread-safe (immutable).
 */
public final class AttachmentRules {
  public static final int MAX_NAME_LENGTH = 255;
  public static final int MAX_DIMENSION = 100_000;
  private static final String KEY_PREFIX = "u/";
  private static final int KEY_RANDOM_BYTES = 16;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final AttachmentLimits limits;

  public AttachmentRules(AttachmentLimits limits) {
    this.limits = limits;
  }

  public AttachmentLimits limits() {
    return limits;
  }

  /** A fresh key in {@code userId}'s upload namespace. */
  public static String newKey(long userId) {
    byte[] random = new byte[KEY_RANDOM_BYTES];
    RANDOM.nextBytes(random);
    return KEY_PREFIX + userId + "/" + HexFormat.of().formatHex(random);
  }

  /** Whether {@code key} is one {@link #newKey} made for {@code userId}. */
  public static boolean ownedBy(String key, long userId) {
    String prefix = KEY_PREFIX + userId + "/";
    if (key == null || !key.startsWith(prefix) || key.length() != prefix.length() + 2 * KEY_RANDOM_BYTES) {
      return false;
    }
    for (int i = prefix.length(); i < key.length(); i++) {
      char c = key.charAt(i);
      if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  /** Why an upload of {@code size} bytes of {@code contentType} named {@code name} is refused, or empty. */
  public Optional<String> uploadProblem(long size, String contentType, String name) {
    if (size < 1 || size > limits.maxBytes()) {
      return Optional.of("size must be 1-" + limits.maxBytes() + " bytes");
    }
    if (!limits.types().contains(contentType)) {
      return Optional.of("type must be one of " + String.join(", ", limits.types()));
    }
    if (name == null || name.isEmpty() || name.length() > MAX_NAME_LENGTH
        || name.chars().anyMatch(Character::isISOControl)) {
      return Optional.of("name must be 1-" + MAX_NAME_LENGTH + " characters without control characters");
    }
    return Optional.empty();
  }

  /** Why a message of {@code type} sent by {@code senderId} may not carry {@code attachment}, or empty. */
  public Optional<String> problem(long senderId, MessageType type, Attachment attachment) {
    if (type != MessageType.IMAGE && type != MessageType.FILE) {
      return Optional.of("only image and file messages carry an attachment");
    }
    if (!ownedBy(attachment.getKey(), senderId)) {
      return Optional.of("attachment key is not one of the sender's uploads");
    }
    Optional<String> upload = uploadProblem(attachment.getSize(), attachment.getContentType(), attachment.getName());
    if (upload.isPresent()) {
      return upload.map(problem -> "attachment " + problem);
    }
    boolean image = attachment.getContentType().startsWith("image/");
    if (type == MessageType.IMAGE && !image) {
      return Optional.of("an image message carries an image/* attachment");
    }
    Integer width = attachment.getWidth();
    Integer height = attachment.getHeight();
    if (width == null && height == null) {
      return Optional.empty();
    }
    if (!image || width == null || height == null) {
      return Optional.of("only images have dimensions, width and height both");
    }
    return width < 1 || height < 1 || width > MAX_DIMENSION || height > MAX_DIMENSION
        ? Optional.of("width and height must be 1-" + MAX_DIMENSION) : Optional.empty();
  }
}
