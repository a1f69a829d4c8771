package io.seqsync.store;

/**
 * A message as the projection stores it and the API returns it (API.md: Message). {@code type} is
 * the API's lowercase name ({@code text}, {@code recall}, ...). Immutable.
 */
public record StoredMessage(
    long msgId,
    String convId,
    long seq,
    long senderId,
    String senderDevice,
    String clientMsgId,
    String type,
    String content,
    long createTime,
    boolean recalled,
    String attachment,
    MessageState state) {

  /** This message with {@code state} (message actions). */
  public StoredMessage withState(MessageState newState) {
    return new StoredMessage(msgId, convId, seq, senderId, senderDevice, clientMsgId, type, content, createTime,
        recalled, attachment, newState);
  }

  /**
   * An attachment as the API shows it and PostgreSQL keeps it: the event's record as JSON
   * ({@code key}, {@code size}, {@code contentType}, {@code name}, {@code width}, {@code height});
   * null for none.
   */
  public static String attachmentJson(io.seqsync.events.model.Attachment attachment) {
    return attachment == null ? null : attachment.toString();
  }

  /** The body a recalled message shows instead of its content (R6). */
  public static final String RECALLED_PLACEHOLDER = "[recalled]";

  /**
   * The message a send command produced, from the command and its announced outcome: what the
   * sequencer appended and the projector stored (its fields are the command's, its seq, msgId and
   * createTime the outcome's), as it was appended, not recalled.
   */
  public static StoredMessage sent(io.seqsync.events.model.Command command, io.seqsync.events.model.SendMessage send,
      io.seqsync.events.model.StoredOutcome outcome) {
    return new StoredMessage(outcome.getMsgId(), outcome.getConvId(), outcome.getSeq(), command.getUserId(), command.getDeviceId(),
        send.getClientMsgId(), apiType(send.getType()), send.getContent(), outcome.getCreateTime(), false,
        attachmentJson(send.getAttachment()), MessageState.of(null, send.getReplyTo(), send.getMentions(), 0));
  }

  /** A message just appended (not recalled yet), as an event carries it: its reply and mentions its only state. */
  public static StoredMessage of(io.seqsync.events.model.Message m) {
    return new StoredMessage(m.getMsgId(), m.getConvId(), m.getSeq(), m.getSenderId(), m.getSenderDevice(),
        m.getClientMsgId(), apiType(m.getType()), m.getContent(), m.getCreateTime(), false,
        attachmentJson(m.getAttachment()), MessageState.of(null, m.getReplyTo(), m.getMentions(), 0));
  }

  /** The API's name of a message type: its lowercase name. */
  public static String apiType(io.seqsync.events.model.MessageType type) {
    return type.name().toLowerCase(java.util.Locale.ROOT);
  }
}
