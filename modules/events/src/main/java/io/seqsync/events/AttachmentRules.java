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
    return namespace(userId) + HexFormat.of().formatHex(random);
  }

  /** {@code userId}'s upload namespace: the prefix of every key {@link #newKey} makes for them. */
  public static String namespace(long userId) {
    return KEY_PREFIX + userId + "/";
  }

  /** Whether {@code key} is one {@link #newKey} made for {@code userId}. */
  public static boolean ownedBy(String key, long userId) {
    String prefix = namespace(userId);
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

  /**
   * The namespace part of a key ({@code u/{userId}/}): what stays plain when the ingress seals the
   * key, so the sequencer still checks whose upload it is.
   */
  public static String keyPrefix(String key) {
    return key.substring(0, key.indexOf('/', KEY_PREFIX.length()) + 1);
  }

  /** The random part of a key: what the ingress seals (the object's name in the store). */
  public static String keySecret(String key) {
    return key.substring(keyPrefix(key).length());
  }

  /** Whether {@code key} is one of {@code userId}'s keys with its random part sealed. */
  public static boolean ownedBySealed(String key, long userId) {
    String prefix = namespace(userId);
    if (key == null || !key.startsWith(prefix)) {
      return false;
    }
    String sealed = key.substring(prefix.length());
    return SealedText.keyId(sealed).isPresent() && sealed.length() <= SealedText.maxLength(2 * KEY_RANDOM_BYTES);
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

  /** Why a message of {@code type} sent by {@code senderId} may not carry {@code attachment}, or empty (a client's send). */
  public Optional<String> problem(long senderId, MessageType type, Attachment attachment) {
    return problem(senderId, type, attachment, false);
  }

  /**
   * The same for a command, whose attachment's name and key may be sealed (the ingress checked the
   * plain ones before sealing them): a sealed name is only bounded, a sealed key still names the
   * sender's namespace.
   */
  public Optional<String> commandProblem(long senderId, MessageType type, Attachment attachment) {
    return problem(senderId, type, attachment, true);
  }

  private Optional<String> problem(long senderId, MessageType type, Attachment attachment, boolean sealedAllowed) {
    if (type != MessageType.IMAGE && type != MessageType.FILE) {
      return Optional.of("only image and file messages carry an attachment");
    }
    if (!ownedBy(attachment.getKey(), senderId) && !(sealedAllowed && ownedBySealed(attachment.getKey(), senderId))) {
      return Optional.of("attachment key is not one of the sender's uploads");
    }
    String name = attachment.getName();
    boolean sealedName = sealedAllowed && SealedText.isSealed(name);
    if (sealedName && (SealedText.keyId(name).isEmpty() || name.length() > SealedText.maxLength(3 * MAX_NAME_LENGTH))) {
      return Optional.of("attachment name is a malformed sealed text");
    }
    Optional<String> upload = uploadProblem(attachment.getSize(), attachment.getContentType(),
        sealedName ? "sealed" : name);
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
