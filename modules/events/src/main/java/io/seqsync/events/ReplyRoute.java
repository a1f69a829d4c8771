package io.seqsync.events;

import java.util.OptionalInt;

/**
 * Where the outcome of a command goes back to: the partition of the announcements topic that the
 * waiting ingress instance reads, carried in the commandId as {@code r<partition>.<id>} so that
 * nothing between the ingress and the projector has to know of it (the sequencer copies the
 * commandId into the command's events). A commandId without it (a command nobody waits for) has
 * no route.
 */
public final class ReplyRoute {
  private ReplyRoute() {}

  /** {@code commandId} routed to {@code partition}. */
  public static String routed(int partition, String commandId) {
    if (partition < 0) {
      throw new IllegalArgumentException("a partition is not negative: " + partition);
    }
    return "r" + partition + "." + commandId;
  }

  /** The partition {@code commandId} is routed to, if any. */
  public static OptionalInt partition(String commandId) {
    int dot = commandId.indexOf('.');
    if (!commandId.startsWith("r") || dot < 2 || dot > 6) {
      return OptionalInt.empty();
    }
    for (int i = 1; i < dot; i++) {
      if (!Character.isDigit(commandId.charAt(i))) {
        return OptionalInt.empty();
      }
    }
    return OptionalInt.of(Integer.parseInt(commandId, 1, dot, 10));
  }
}
