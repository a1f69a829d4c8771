package io.seqsync.store;

/**
 * What a command came to, announced once the projection has committed it: {@code APPENDED} (a
 * message, recall notice or membership notice now stored at {@code seq}), {@code APPLIED} (a
 * cursor, read or draft change stored; seq is the new position, 0 for a draft) or
 * {@code REJECTED} (nothing stored; {@code reason} says why). An appended message's
 * {@code createTime} comes along, so that a send can be answered from its command and this outcome
 * without reading the row back (0 for the other kinds). Immutable.
 */
public record Outcome(Kind kind, String commandId, String convId, long seq, long msgId, long createTime, String reason) {
  public enum Kind { APPENDED, APPLIED, REJECTED }

  public static Outcome appended(String commandId, String convId, long seq, long msgId, long createTime) {
    return new Outcome(Kind.APPENDED, commandId, convId, seq, msgId, createTime, "");
  }

  public static Outcome applied(String commandId, String convId, long seq) {
    return new Outcome(Kind.APPLIED, commandId, convId, seq, 0, 0, "");
  }

  public static Outcome rejected(String commandId, String convId, String reason) {
    return new Outcome(Kind.REJECTED, commandId, convId, 0, 0, 0, reason);
  }
}
