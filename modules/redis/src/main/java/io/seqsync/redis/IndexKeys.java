package io.seqsync.redis;

/**
 * The keys of the conversation index (docs/design.md, "Redis layout"). Every key carries a hash
 * tag (the part in braces, which alone chooses a Redis Cluster's hash slot): a conversation's keys
 * share the tag of its convId, a user's keys the tag of their user id, so that each script runs on
 * keys of one slot, as a Redis Cluster requires, and a conversation's or a user's keys live on one
 * master. Conversation ids and user ids never hold braces.
 */
final class IndexKeys {
  /** Every key of the index starts with this. */
  static final String PREFIX = "ss:";

  /**
   * Every group scored by last activity: one write per group message, whatever the group's size;
   * the list reads the scores of the user's groups from here (read fan-out, docs/design.md). One key
   * for every group, so one master of a cluster holds it: no script reads it with another key.
   */
  static final String GROUP_ACTIVITY = PREFIX + "groups:activity";

  private IndexKeys() {}

  /** The conversation's hash: latestSeq, updatedAt, last, name, countableFloor, built. */
  static String conversation(String convId) {
    return PREFIX + "conv:{" + convId + "}";
  }

  /** Countable messages (R20: text, image, file) of everyone, or of one sender; score = member = seq. */
  static String countable(String convId, Long senderId) {
    return conversation(convId) + ":countable" + (senderId == null ? "" : ":" + senderId);
  }

  /** The countable messages that were recalled, of everyone or of one sender. */
  static String recalled(String convId, Long senderId) {
    return conversation(convId) + ":recalled" + (senderId == null ? "" : ":" + senderId);
  }

  /** The user's hash: read positions, drafts, built. */
  static String user(long userId) {
    return PREFIX + "user:{" + userId + "}";
  }

  /** Message actions: the seqs at which the user is mentioned in the conversation; score = member = seq. */
  static String mentions(long userId, String convId) {
    return user(userId) + ":mentions:" + convId;
  }

  /** The user's direct conversations, scored by last activity: written for both users on every message. */
  static String userConversations(long userId) {
    return user(userId) + ":convs";
  }

  /** The user's groups, a set: written only when the membership changes. */
  static String userGroups(long userId) {
    return user(userId) + ":groups";
  }

  /** A device's cursors: convId to seq. */
  static String cursors(long userId, String deviceId) {
    return PREFIX + "cursors:{" + userId + "}:" + deviceId;
  }

  /**
   * How far the index has applied a topic's partitions: field partition, value the next offset. A
   * key of its own, alone in its scripts: in a cluster it lives on one master, the merges on all of
   * them (see ConversationIndexer on what a master's failover means for it).
   */
  static String watermark(String topic) {
    return PREFIX + "indexed:{" + topic + "}";
  }

  static String readField(String convId) {
    return "read:" + convId;
  }

  static String draftField(String convId) {
    return "draft:" + convId;
  }
}
