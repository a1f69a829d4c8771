package io.seqsync.events;

import io.seqsync.events.model.GroupRolesChanged;
import io.seqsync.events.model.GroupSettingsChanged;
import io.seqsync.events.model.MembershipChanged;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.MessageEdited;
import io.seqsync.events.model.ReactionChanged;
import io.seqsync.events.model.RecallApplied;

/** The message an event's payload appends, with its own seq: a message, or a recall, membership, role, settings, edit or reaction notice. Stateless. */
public final class AppendedMessages {
  private AppendedMessages() {}

  /** The message {@code payload} appends, or null when it appends none. */
  public static Message of(Object payload) {
    if (payload instanceof MessageAppended appended) {
      return appended.getMessage();
    }
    if (payload instanceof RecallApplied recall) {
      return recall.getNotice();
    }
    if (payload instanceof MembershipChanged change) {
      return change.getNotice();
    }
    if (payload instanceof GroupRolesChanged roles) {
      return roles.getNotice();
    }
    if (payload instanceof GroupSettingsChanged settings) {
      return settings.getNotice();
    }
    if (payload instanceof MessageEdited edit) {
      return edit.getNotice();
    }
    if (payload instanceof ReactionChanged reaction) {
      return reaction.getNotice();
    }
    return null;
  }
}
