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
    MessageState state) {

  /** A message without message actions' state (none, or not read). */
  public StoredMessage(long msgId, String convId, long seq, long senderId, String senderDevice, String clientMsgId,
      String type, String content, long createTime, boolean recalled) {
    this(msgId, convId, seq, senderId, senderDevice, clientMsgId, type, content, createTime, recalled, null);
  }

  /** This message with {@code state} (message actions). */
  public StoredMessage withState(MessageState newState) {
    return new StoredMessage(msgId, convId, seq, senderId, senderDevice, clientMsgId, type, content, createTime,
        recalled, newState);
  }

  /** The body a recalled message shows instead of its content (R6). */
  public static final String RECALLED_PLACEHOLDER = "[recalled]";

  /**
   * The message a send command produced, from the command and its announced outcome: what the
   * sequencer appended and the projector stored (its fields are the command's, its seq, msgId and
   * createTime the outcome's), as it was appended, not recalled.
   */
  public static StoredMessage sent(io.seqsync.events.model.Command command, io.seqsync.events.model.SendMessage send,
      Outcome outcome) {
    return new StoredMessage(outcome.msgId(), outcome.convId(), outcome.seq(), command.getUserId(), command.getDeviceId(),
        send.getClientMsgId(), apiType(send.getType()), send.getContent(), outcome.createTime(), false,
        MessageState.of(null, send.getReplyTo(), send.getMentions(), 0));
  }

  /** A message just appended (not recalled yet), as an event carries it: its reply and mentions its only state. */
  public static StoredMessage of(io.seqsync.events.model.Message m) {
    return new StoredMessage(m.getMsgId(), m.getConvId(), m.getSeq(), m.getSenderId(), m.getSenderDevice(),
        m.getClientMsgId(), apiType(m.getType()), m.getContent(), m.getCreateTime(), false,
        MessageState.of(null, m.getReplyTo(), m.getMentions(), 0));
  }

  /** The API's name of a message type: its lowercase name. */
  public static String apiType(io.seqsync.events.model.MessageType type) {
    return type.name().toLowerCase(java.util.Locale.ROOT);
  }
}
