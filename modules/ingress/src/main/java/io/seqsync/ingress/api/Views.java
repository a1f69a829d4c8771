package io.seqsync.ingress.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import io.seqsync.ingress.http.Json;
import io.seqsync.redis.ConversationList;
import io.seqsync.store.ConversationQueries.SyncRow;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.DeliveryQueries;
import io.seqsync.store.GroupQueries;
import io.seqsync.store.ListEntry;
import io.seqsync.store.ListSettingsQueries;
import io.seqsync.store.MessageState;
import io.seqsync.store.StoredMessage;
import io.seqsync.store.SyncScreens;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The JSON shapes of the answers (API.md): records serialized by {@link Json#MAPPER}. */
public final class Views {
  private Views() {}

  /**
   * A message; msgId and senderId are decimal strings, 64-bit ids do not fit a JavaScript number.
   * Message actions' state only where there is some: {@code edited} (true) and {@code editedAt},
   * {@code replyTo}, {@code mentions}, {@code reactions}.
   */
  public record Message(String msgId, String convId, long seq, String senderId, String senderDevice, String clientMsgId,
      String type, String content, long createTime, boolean recalled,
      @JsonInclude(JsonInclude.Include.NON_NULL) @JsonRawValue String attachment,
      @JsonInclude(JsonInclude.Include.NON_NULL) Boolean edited,
      @JsonInclude(JsonInclude.Include.NON_NULL) Long editedAt,
      @JsonInclude(JsonInclude.Include.NON_NULL) ReplyTo replyTo,
      @JsonInclude(JsonInclude.Include.NON_NULL) List<String> mentions,
      @JsonInclude(JsonInclude.Include.NON_NULL) List<Reaction> reactions) {
    public static Message of(StoredMessage m) {
      MessageState s = m.state();
      return new Message(Long.toString(m.msgId()), m.convId(), m.seq(), Long.toString(m.senderId()),
          m.senderDevice(), m.clientMsgId(), m.type(), m.content(), m.createTime(), m.recalled(), m.attachment(),
          s == null || s.editedAt() == null ? null : Boolean.TRUE, s == null ? null : s.editedAt(),
          s == null || s.replyTo() == null ? null : ReplyTo.of(s.replyTo(), s.quote()),
          s == null || s.mentions().isEmpty() ? null : s.mentions().stream().map(String::valueOf).toList(),
          s == null || s.reactions().isEmpty() ? null : s.reactions().stream().map(Reaction::of).toList());
    }

    public static List<Message> of(List<StoredMessage> messages) {
      return messages.stream().map(Message::of).toList();
    }
  }

  /**
   * The message a message replies to: its seq and, when stored, its sender, type and the start of
   * its content (a recalled one's placeholder).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record ReplyTo(long seq, String senderId, String type, String quote) {
    static ReplyTo of(long seq, MessageState.Quote quote) {
      return quote == null ? new ReplyTo(seq, null, null, null)
          : new ReplyTo(seq, Long.toString(quote.senderId()), quote.type(), quote.text());
    }
  }

  /** An emoji's reactions on a message: how many, and whether the caller is among them. */
  public record Reaction(String emoji, long count, boolean me) {
    static Reaction of(MessageState.Reaction reaction) {
      return new Reaction(reaction.emoji(), reaction.count(), reaction.mine());
    }
  }

  /** 200 to a send: the stored message; duplicate when it answers a retry with the original. */
  record Sent(Message message, boolean duplicate) {}

  /** 202: durably accepted, no seq within the reply budget; msgId is null unless already known. */
  record Accepted(String msgId, String convId, String clientMsgId, String status) {
    public static Accepted of(Long msgId, String convId, String clientMsgId) {
      return new Accepted(msgId == null ? null : Long.toString(msgId), convId, clientMsgId, "accepted");
    }
  }

  /** 202 to a recall (and a message action): durably accepted, the notice not yet stored within the budget. */
  record RecallAccepted(String convId, long seq, String status) {}

  /** 200 to a recall (and a message action): its notice, a message with its own seq. */
  record Recalled(Message notice, boolean duplicate) {}

  /**
   * A page of a fetch; realign only when the asked cursor was ahead of latestSeq (R10), archiveHint
   * only when the page reached below the hot tier (R22).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Fetched(List<Message> messages, boolean hasMore, long nextAfter, long latestSeq, Long realign,
      ArchiveHint archiveHint) {}

  /**
   * Where the hot tier ends (R22): every seq of convId up to archivedSeq is in the archive; GET
   * /v1/archive/messages?convId= pages it, newest first, from there down.
   */
  record ArchiveHint(String convId, long archivedSeq) {}

  /** GET /v1/archive/messages: archived messages, newest first; where the next page starts when hasMore. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Archived(List<Message> messages, boolean hasMore, Long nextBefore, Long nextBeforeSeq) {}

  /**
   * The handshake answer (R13), one page of it: {@code limited} when more conversations may have
   * something new, {@code next} (only then) the opaque token that asks for them.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Synced(List<SyncConversation> conversations, long serverTime, boolean limited, String next) {}

  /**
   * A handshake entry; {@code messages} (the newest unseen, at most a first screen, ascending) and
   * {@code limited} (older unseen ones remain below them) only when the answer carries its screen.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record SyncConversation(String convId, long latestSeq, long deviceCursor, long readSeq, long unread,
      List<Message> messages, Boolean limited) {
    public static SyncConversation of(SyncRow row) {
      return new SyncConversation(row.convId(), row.latestSeq(), row.deviceCursor(), row.readSeq(), row.unread(), null, null);
    }

    /** This entry with its first screen. */
    public SyncConversation with(SyncScreens.Screen screen) {
      return new SyncConversation(convId, latestSeq, deviceCursor, readSeq, unread, Message.of(screen.messages()),
          screen.limited());
    }
  }

  /** 202 to acks, read reports, drafts and delivery reports: every record is durably in Kafka. */
  record PositionsAccepted(int accepted, String status) {}

  /**
   * GET /ops/delivery (R24): the period (UTC days, {@code to} exclusive), the render target, the sends,
   * those another member rendered and those rendered within the target, their rates (null without
   * sends), the send-to-render latency of each delivered send's first render, and the negative cases by cause.
   */
  public record DeliveryFigures(String from, String to, long renderTargetMs, long sends, long delivered, long deliveredOnTime,
      Double deliveryRate, Double onTimeRate, Latency latencyMs, Map<String, Long> cases) {
    public static DeliveryFigures of(LocalDate from, LocalDate to, Duration renderTarget, DeliveryQueries.Report report) {
      return new DeliveryFigures(from.toString(), to.toString(), renderTarget.toMillis(), report.sends(),
          report.delivered(), report.onTime(), rate(report.delivered(), report.sends()),
          rate(report.onTime(), report.sends()),
          new Latency(report.p50Millis(), report.p90Millis(), report.p99Millis(), report.maxMillis()), report.cases());
    }

    private static Double rate(long part, long whole) {
      return whole == 0 ? null : (double) part / whole;
    }
  }

  /** Percentiles in milliseconds, null when nothing was measured. */
  record Latency(Long p50, Long p90, Long p99, Long max) {}

  /**
   * GET /v1/conversations/{convId} (R14); name, members (decimal strings), roles (the owner's and
   * admins': a member not listed is a plain member) and settings for groups only.
   */
  record Activation(String convId, String kind, @JsonInclude(JsonInclude.Include.NON_NULL) String name,
      long latestSeq, long deviceCursor, long readSeq, long unread, String draft,
      @JsonInclude(JsonInclude.Include.NON_NULL) List<String> members,
      @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, String> roles,
      @JsonInclude(JsonInclude.Include.NON_NULL) Settings settings) {
    /** {@code group}: the group's roles and settings, null for a direct conversation. */
    public static Activation of(ConversationQueries.Activation a, GroupQueries.Group group) {
      Map<String, String> roles = null;
      if (group != null) {
        roles = new TreeMap<>();
        for (long admin : group.admins()) {
          roles.put(Long.toString(admin), GroupQueries.ADMIN);
        }
        if (group.ownerId() != null && group.memberCount() > 0) {
          roles.put(Long.toString(group.ownerId()), GroupQueries.OWNER);
        }
      }
      return new Activation(a.convId(), a.kind(), a.name(), a.latestSeq(), a.deviceCursor(), a.readSeq(), a.unread(),
          a.draft(), a.members() == null ? null : a.members().stream().map(String::valueOf).toList(), roles,
          group == null ? null : new Settings(group.membersCanInvite()));
    }
  }

  /** A group's settings. */
  record Settings(boolean membersCanInvite) {}

  /**
   * 202 to a role change: {@code applied} with the notice once stored, {@code accepted} when not
   * yet stored within the reply budget, {@code unchanged} when the member has that role already.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record RoleChanged(String convId, String userId, String role, Message notice, String status) {}

  /** 202 to a settings change, with the settings asked for; status as for a role change. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record SettingsChanged(String convId, Settings settings, Message notice, String status) {}

  /** 200 to a block or unblock once stored ({@code applied}) or already so ({@code unchanged}); 202 {@code accepted}. */
  record BlockChanged(String userId, boolean blocked, String status) {}

  /** GET /v1/blocks: a page of the caller's blocks by user id; next (the after of the next page) null at the end. */
  record Blocks(List<BlockedUser> blocks, String next) {}

  record BlockedUser(String userId, long since) {}

  /** GET /v1/conversations: a page of the list; next is null after the last page. */
  record ConversationPage(List<ListedConversation> conversations, String next) {
    /** {@code settings}: the caller's list settings of those conversations that have any. */
    public static ConversationPage of(ConversationList.Page page, Map<String, ListSettingsQueries.ListSettings> settings) {
      return new ConversationPage(page.conversations().stream().map(entry -> ListedConversation.of(entry,
          settings.getOrDefault(entry.convId(), ListSettingsQueries.ListSettings.DEFAULT))).toList(), page.next());
    }
  }

  /** {@code mentions}: message actions, how often the caller is mentioned above their read position. */
  record ListedConversation(String convId, @JsonInclude(JsonInclude.Include.NON_NULL) String name, long latestSeq,
      Message lastMessage, long readSeq, long unread, String draft, long updatedAt, long mentions, boolean muted,
      boolean pinned) {
    public static ListedConversation of(ListEntry e, ListSettingsQueries.ListSettings settings) {
      return new ListedConversation(e.convId(), e.name(), e.latestSeq(),
          e.lastMessage() == null ? null : Message.of(e.lastMessage()), e.readSeq(), e.unread(), e.draft(), e.updatedAt(),
          e.mentions(), settings.muted(), settings.pinned());
    }
  }

  /**
   * 201 to a group creation once its first notice is stored (status {@code created}); 202 with
   * status {@code accepted} when that takes longer than the reply budget.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record GroupCreated(String convId, String name, Message notice, String status) {}

  /**
   * 202 to a membership change: {@code applied} with the notice once stored, {@code accepted} when
   * not yet stored within the reply budget, {@code unchanged} when it would change nobody.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record MembersChanged(String convId, List<String> added, List<String> removed, Message notice, String status) {
    public static MembersChanged of(String convId, List<Long> added, List<Long> removed, Message notice, String status) {
      return new MembersChanged(convId, added.stream().map(String::valueOf).toList(),
          removed.stream().map(String::valueOf).toList(), notice, status);
    }
  }
}
