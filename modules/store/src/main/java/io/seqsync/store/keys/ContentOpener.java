package io.seqsync.store.keys;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.events.AppendedMessages;
import io.seqsync.events.SealedText;
import io.seqsync.events.model.Attachment;
import io.seqsync.events.model.DraftUpdated;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageEdited;
import io.seqsync.events.model.ReactionChanged;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.SecretKey;
import org.jdbi.v3.core.Jdbi;

/**
 * Opens the sealed texts of decoded events in place, where plaintext is needed (the projector's
 * rows, the notifier's previews): one key store query per batch. A text whose key is gone reads as
 * erased: a message's content becomes {@link #ERASED} (without its attachment), a reaction's emoji
 * too, a draft empty.
 * Thread-safe.
 */
public final class ContentOpener {
  /** What an erased message's content reads as: a placeholder, like a recall's. */
  public static final String ERASED = "[erased]";
  /** Leaves sealed texts as they are (components that never see sealed content). */
  public static final ContentOpener NONE = new ContentOpener(null);

  // A sealed text, alone or inside a notice's JSON (where its first character is escaped).
  private static final Pattern SEALED = Pattern.compile("(?:\u0001|\\\\u0001)s1\\.([A-Za-z0-9_-]{"
      + SealedText.KEY_ID_LENGTH + "})\\.([A-Za-z0-9_-]*)");
  private static final Base64.Decoder BASE64URL = Base64.getUrlDecoder();

  private final ContentKeys keys;

  public ContentOpener(ContentKeys keys) {
    this.keys = keys;
  }

  /** The opener of {@code config}'s master keys over the key store {@code jdbi} reaches. */
  public static ContentOpener of(SeqsyncConfig config, Jdbi jdbi) {
    return new ContentOpener(new ContentKeys(jdbi, MasterKeys.load(config.erasure(), config.dataDir())));
  }

  /** Opens every sealed text of {@code events}, changing them. */
  public void open(List<Event> events) {
    if (keys == null) {
      return;
    }
    Set<String> keyIds = new HashSet<>();
    events.forEach(event -> visit(event.getPayload(), text -> {
      Matcher matcher = SEALED.matcher(text);
      while (matcher.find()) {
        keyIds.add(matcher.group(1));
      }
    }));
    if (keyIds.isEmpty()) {
      return;
    }
    Map<String, SecretKey> found = keys.find(keyIds);
    events.forEach(event -> openPayload(event.getPayload(), found));
  }

  private static void openPayload(Object payload, Map<String, SecretKey> found) {
    if (payload instanceof DraftUpdated draft && SealedText.isSealed(draft.getText())) {
      String opened = openWhole(draft.getText(), found);
      draft.setText(opened == null ? "" : opened);
      return;
    }
    if (payload instanceof MessageEdited edit && SealedText.isSealed(edit.getContent())) {
      String opened = openWhole(edit.getContent(), found);
      edit.setContent(opened == null ? ERASED : opened);
    }
    if (payload instanceof ReactionChanged reaction && SealedText.isSealed(reaction.getEmoji())) {
      String opened = openWhole(reaction.getEmoji(), found);
      reaction.setEmoji(opened == null ? ERASED : opened);
    }
    Message message = message(payload);
    if (message == null) {
      return;
    }
    String content = message.getContent();
    if (SealedText.isSealed(content)) {
      String opened = openWhole(content, found);
      message.setContent(opened == null ? ERASED : opened);
      if (opened == null) {
        message.setAttachment(null);
      }
    } else if (content.contains("\\u0001s1.")) {
      message.setContent(openInJson(content, found));
    }
    if (message.getAttachment() != null) {
      openAttachment(message, found);
    }
  }

  // An attachment's sealed name and key (its random part): both open, or the attachment is gone.
  private static void openAttachment(Message message, Map<String, SecretKey> found) {
    Attachment attachment = message.getAttachment();
    String name = attachment.getName();
    String key = attachment.getKey();
    String prefix = key.substring(0, sealedFrom(key));
    String openedName = SealedText.isSealed(name) ? openWhole(name, found) : name;
    String openedKey = prefix.length() < key.length() ? openWhole(key.substring(prefix.length()), found) : null;
    if (openedName == null || prefix.length() < key.length() && openedKey == null) {
      message.setAttachment(null);
      return;
    }
    attachment.setName(openedName);
    if (openedKey != null) {
      attachment.setKey(prefix + openedKey);
    }
  }

  // Where the sealed part of an attachment key starts (u/{userId}/ stays plain), or its length when none is.
  private static int sealedFrom(String key) {
    int at = key.indexOf(SealedText.PREFIX);
    return at < 0 ? key.length() : at;
  }

  // Calls visitor on each text of the payload that may hold a sealed text.
  private static void visit(Object payload, Consumer<String> visitor) {
    if (payload instanceof DraftUpdated draft) {
      visitor.accept(draft.getText());
    }
    if (payload instanceof MessageEdited edit) {
      visitor.accept(edit.getContent());
    }
    if (payload instanceof ReactionChanged reaction) {
      visitor.accept(reaction.getEmoji());
    }
    Message message = message(payload);
    if (message != null) {
      visitor.accept(message.getContent());
      if (message.getAttachment() != null) {
        visitor.accept(message.getAttachment().getName());
        visitor.accept(message.getAttachment().getKey());
      }
    }
  }

  private static Message message(Object payload) {
    return AppendedMessages.of(payload);
  }

  /** The plaintext of a whole sealed text, or null when its key is gone (or it does not open). */
  static String openWhole(String sealed, Map<String, SecretKey> found) {
    Matcher matcher = SEALED.matcher(sealed);
    return matcher.matches() ? plaintext(matcher.group(1), matcher.group(2), found) : null;
  }

  // A notice's JSON holding sealed texts as JSON strings: each replaced by its plaintext, JSON-escaped.
  private static String openInJson(String json, Map<String, SecretKey> found) {
    Matcher matcher = SEALED.matcher(json);
    StringBuilder out = new StringBuilder();
    while (matcher.find()) {
      String opened = plaintext(matcher.group(1), matcher.group(2), found);
      String escaped = new String(JsonStringEncoder.getInstance().quoteAsString(opened == null ? ERASED : opened));
      matcher.appendReplacement(out, Matcher.quoteReplacement(escaped));
    }
    matcher.appendTail(out);
    return out.toString();
  }

  private static String plaintext(String keyId, String body, Map<String, SecretKey> found) {
    SecretKey key = found.get(keyId);
    if (key == null) {
      return null;
    }
    try {
      return new String(Aead.open(key, BASE64URL.decode(body), keyId.getBytes(StandardCharsets.US_ASCII)),
          StandardCharsets.UTF_8);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return null;
    }
  }
}
