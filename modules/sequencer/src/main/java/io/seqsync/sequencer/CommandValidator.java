package io.seqsync.sequencer;

import io.seqsync.config.AttachmentLimits;
import io.seqsync.events.ActionRules;
import io.seqsync.events.AttachmentRules;
import io.seqsync.events.ConvId;
import io.seqsync.events.DeviceIds;
import io.seqsync.events.SealedText;
import io.seqsync.events.UserIds;
import io.seqsync.events.model.AckCursor;
import io.seqsync.events.model.ChangeGroupSettings;
import io.seqsync.events.model.EditMessage;
import io.seqsync.events.model.SetReaction;
import io.seqsync.events.model.ChangeMembership;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.MessageType;
import io.seqsync.events.model.ChangeListSettings;
import io.seqsync.events.model.RecallMessage;
import io.seqsync.events.model.ReportRead;
import io.seqsync.events.model.SendMessage;
import io.seqsync.events.model.SetBlock;
import io.seqsync.events.model.SetGroupRole;
import io.seqsync.events.model.UpdateDraft;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Decides whether a decoded command is well-formed. The ingress validates first; this is the last
 * line, so that nothing malformed from any producer reaches the event log. Public as the
 * reference of validity for other modules' tests. Thread-safe (immutable).
 */
public final class CommandValidator {
  static final int MAX_ID_LENGTH = 128;
  private static final Set<String> ROLES = Set.of(GroupRules.OWNER, GroupRules.ADMIN, GroupRules.MEMBER);
  private static final Set<MessageType> CLIENT_TYPES = Set.of(MessageType.TEXT, MessageType.IMAGE, MessageType.FILE);

  private final int maxContentBytes;
  private final int maxGroupMembers;
  private final AttachmentRules attachments;

  public CommandValidator(int maxContentBytes, int maxGroupMembers) {
    this(maxContentBytes, maxGroupMembers, new AttachmentLimits(AttachmentLimits.DEFAULT_MAX_BYTES,
        AttachmentLimits.DEFAULT_TYPES));
  }

  public CommandValidator(int maxContentBytes, int maxGroupMembers, AttachmentLimits attachmentLimits) {
    this.maxContentBytes = maxContentBytes;
    this.maxGroupMembers = maxGroupMembers;
    this.attachments = new AttachmentRules(attachmentLimits);
  }

  /** Why the command is invalid, or empty when it is valid. */
  public Optional<String> problem(String recordKey, Command command) {
    Optional<ConvId> convId = ConvId.parse(command.getConvId());
    if (convId.isEmpty()) {
      return Optional.of("malformed convId");
    }
    if (!command.getConvId().equals(recordKey)) {
      return Optional.of("record key does not match convId");
    }
    if (!isId(command.getCommandId())) {
      return Optional.of("malformed commandId");
    }
    if (command.getUserId() <= 0 || !DeviceIds.isValid(command.getDeviceId())) {
      return Optional.of("malformed caller");
    }
    if (convId.get().kind() == ConvId.Kind.DIRECT && !convId.get().namesUser(command.getUserId())
        && !systemSend(command)) {
      return Optional.of("caller is not a member of the conversation");
    }
    if (command.getPayload() instanceof SendMessage send && send.getAttachment() != null) {
      Optional<String> attachment = attachments.commandProblem(command.getUserId(), send.getType(), send.getAttachment());
      if (attachment.isPresent()) {
        return attachment;
      }
    }
    return payloadProblem(convId.get(), command.getPayload());
  }

  /** A send of the server API's system sender, which may write to any conversation (its ingress checked who asked). */
  public static boolean systemSend(Command command) {
    return command.getUserId() == UserIds.SYSTEM && command.getPayload() instanceof SendMessage;
  }

  /**
   * Whether an invalid command still deserves a rejection event: only when it is addressed to the
   * conversation it names and carries a well-formed commandId the sender can correlate; anything
   * else (a malformed id echoed into an event) would carry the hostile text onward.
   */
  public boolean answerable(String recordKey, Command command) {
    return recordKey != null && ConvId.parse(recordKey).isPresent() && recordKey.equals(command.getConvId())
        && isId(command.getCommandId());
  }

  private Optional<String> payloadProblem(ConvId convId, Object payload) {
    if (payload instanceof SendMessage send) {
      if (!isId(send.getClientMsgId())) {
        return Optional.of("malformed clientMsgId");
      }
      if (!CLIENT_TYPES.contains(send.getType())) {
        return Optional.of("message type " + send.getType() + " cannot be sent by a client");
      }
      Optional<String> content = textProblem(send.getContent(), "content");
      return content.isPresent() ? content : replyAndMentionsProblem(send);
    }
    if (payload instanceof EditMessage edit) {
      return edit.getSeq() < 1 ? Optional.of("seq must be positive") : textProblem(edit.getContent(), "content");
    }
    if (payload instanceof SetReaction reaction) {
      return reaction.getSeq() < 1 ? Optional.of("seq must be positive")
          : !ActionRules.isEmoji(reaction.getEmoji()) && !sealedEmoji(reaction.getEmoji()) ? Optional.of("an emoji is 1-" + ActionRules.MAX_EMOJI_LENGTH
              + " characters without spaces or control characters")
          : Optional.empty();
    }
    if (payload instanceof RecallMessage recall) {
      return recall.getSeq() < 1 ? Optional.of("seq must be positive") : Optional.empty();
    }
    if (payload instanceof AckCursor ack) {
      return ack.getSeq() < 0 ? Optional.of("seq must not be negative") : Optional.empty();
    }
    if (payload instanceof ReportRead read) {
      return read.getSeq() < 0 ? Optional.of("seq must not be negative") : Optional.empty();
    }
    if (payload instanceof UpdateDraft draft) {
      return textProblem(draft.getText(), "draft");
    }
    if (payload instanceof ChangeMembership change) {
      return membershipProblem(convId, change);
    }
    if (payload instanceof SetGroupRole role) {
      return convId.kind() != ConvId.Kind.GROUP ? Optional.of("roles only apply to groups")
          : role.getUserId() <= 0 ? Optional.of("user ids must be positive")
          : !ROLES.contains(role.getRole()) ? Optional.of("a role is owner, admin or member")
          : Optional.empty();
    }
    if (payload instanceof ChangeGroupSettings settings) {
      return convId.kind() != ConvId.Kind.GROUP ? Optional.of("settings only apply to groups")
          : settings.getMembersCanInvite() == null ? Optional.of("the settings change names no setting")
          : Optional.empty();
    }
    if (payload instanceof SetBlock) {
      // The caller is one of the two users (checked above): the block names the other.
      return convId.kind() != ConvId.Kind.DIRECT ? Optional.of("a block applies to a direct conversation")
          : Optional.empty();
    }
    if (payload instanceof ChangeListSettings settings) {
      return settings.getMuted() == null && settings.getPinned() == null
          ? Optional.of("the list settings change names no setting") : Optional.empty();
    }
    return Optional.of("unknown command payload");
  }

  private Optional<String> membershipProblem(ConvId convId, ChangeMembership change) {
    if (convId.kind() != ConvId.Kind.GROUP) {
      return Optional.of("membership changes only apply to groups");
    }
    List<Long> add = change.getAdd();
    List<Long> remove = change.getRemove();
    if (add.isEmpty() && remove.isEmpty()) {
      return Optional.of("membership change adds and removes nobody");
    }
    if (add.size() + remove.size() > maxGroupMembers) {
      return Optional.of("membership change too large");
    }
    if (add.stream().anyMatch(id -> id <= 0) || remove.stream().anyMatch(id -> id <= 0)) {
      return Optional.of("user ids must be positive");
    }
    if (add.stream().anyMatch(remove::contains)) {
      return Optional.of("a user is both added and removed");
    }
    if (change.getGroupName() != null && change.getGroupName().isBlank()) {
      return Optional.of("a group name must not be blank");
    }
    return change.getGroupName() == null ? Optional.empty() : textProblem(change.getGroupName(), "group name");
  }

  private static Optional<String> replyAndMentionsProblem(SendMessage send) {
    if (send.getReplyTo() != null && send.getReplyTo() < 1) {
      return Optional.of("replyTo must be a positive seq");
    }
    if (send.getMentions().size() > ActionRules.MAX_MENTIONS) {
      return Optional.of("at most " + ActionRules.MAX_MENTIONS + " mentions");
    }
    return send.getMentions().stream().anyMatch(id -> id <= 0) ? Optional.of("user ids must be positive")
        : Optional.empty();
  }

  // The ingress seals a reaction's emoji after checking it: a sealed one is only bounded.
  private static boolean sealedEmoji(String emoji) {
    return SealedText.keyId(emoji).isPresent() && emoji.length() <= SealedText.maxLength(3 * ActionRules.MAX_EMOJI_LENGTH);
  }

  // Texts end up in PostgreSQL, whose text type cannot hold NUL: one would stall the projector.
  // A sealed text (the ingress encrypted it) is ASCII: its limit is the sealed form of the largest plaintext.
  private Optional<String> textProblem(String text, String what) {
    if (text.indexOf('\u0000') >= 0) {
      return Optional.of(what + " contains NUL");
    }
    if (SealedText.isSealed(text)) {
      return SealedText.keyId(text).isEmpty() ? Optional.of(what + " is a malformed sealed text")
          : text.length() > SealedText.maxLength(maxContentBytes)
              ? Optional.of(what + " exceeds " + maxContentBytes + " bytes") : Optional.empty();
    }
    return Utf8Length.exceeds(text, maxContentBytes)
        ? Optional.of(what + " exceeds " + maxContentBytes + " bytes")
        : Optional.empty();
  }

  // Ids are printable: no control characters (NUL separates parts of store keys). A loop, as this
  // runs for every command.
  private static boolean isId(String id) {
    if (id == null || id.isEmpty() || id.length() > MAX_ID_LENGTH) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      if (Character.isISOControl(id.charAt(i))) {
        return false;
      }
    }
    return true;
  }
}
