package io.seqsync.ingress.api;

import io.seqsync.events.ConvId;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.MessageQueries;
import io.seqsync.store.MessageQueries.Page;

/**
 * Fetch semantics (API.md, R8-R11, R16). Every page is ascending by seq and comes with
 * {@code latestSeq}, the committed watermark. {@code hasMore}: for forward pages (after, cursor,
 * range) whether more messages follow the page (within until); for backward pages (before, last)
 * whether older messages precede it. {@code nextAfter}: the seq of the last message returned; on
 * an empty page the cursor the page started from (after or the device cursor), for before
 * {@code min(before - 1, latestSeq)}, for last latestSeq. A cursor ahead of latestSeq (R10)
 * answers the latest 20 with {@code realign: latestSeq}, {@code hasMore: false} and
 * {@code nextAfter: latestSeq}. A group member's pages never reach below {@code floor}, the seq
 * before the notice that added them. A page that reaches below the hot tier (R22) carries an
 * {@code archiveHint}: a forward page asked from below the conversation's archived seq, and a
 * backward page with nothing older in the hot table while older messages the member may read
 * are archived. Thread-safe.
 */
public final class FetchService {
  static final int REALIGN_PAGE = 20;

  private final MessageQueries messages;
  private final ConversationQueries conversations;
  private final SyncDepth syncDepth;

  public FetchService(MessageQueries messages, ConversationQueries conversations, SyncDepth syncDepth) {
    this.messages = messages;
    this.conversations = conversations;
    this.syncDepth = syncDepth;
  }

  public Views.Fetched fetch(Caller caller, ConvId convId, FetchRequest request, long floor) {
    String conv = convId.value();
    return switch (request.mode()) {
      case LAST -> {
        Page page = withActions(messages.last(conv, request.count(), floor), conv, caller);
        yield answer(page, page.lastSeqOr(page.latestSeq()), null, reachedArchive(conv, page, floor));
      }
      case BEFORE -> {
        Page page = withActions(messages.before(conv, request.before(), request.count(), floor), conv, caller);
        yield answer(page, page.lastSeqOr(Math.min(request.before() - 1, page.latestSeq())), null,
            reachedArchive(conv, page, floor));
      }
      case AFTER, FROM_CURSOR -> {
        long after = request.mode() == FetchRequest.Mode.AFTER
            ? request.after() : conversations.deviceCursor(caller.userId(), caller.deviceId(), conv);
        long from = Math.max(after, floor);
        Page page = withActions(request.until() == null
            ? messages.after(conv, from, request.count())
            : messages.range(conv, from, request.until(), request.count()), conv, caller);
        Views.Fetched fetched;
        if (after > page.latestSeq()) {
          Page latest = withActions(messages.last(conv, REALIGN_PAGE, floor), conv, caller);
          fetched = new Views.Fetched(Views.Message.of(latest.messages()), false, latest.latestSeq(), latest.latestSeq(),
              latest.latestSeq(), null);
        } else {
          // Asked from below the hot floor: the page starts at the floor, the rest is in the archive.
          fetched = answer(page, page.lastSeqOr(from), null, from < page.archivedSeq() ? hint(conv, page) : null);
        }
        if (request.until() == null) {
          syncDepth.served(caller, conv, request.mode() == FetchRequest.Mode.FROM_CURSOR, after, fetched.hasMore(),
              fetched.nextAfter());
        }
        yield fetched;
      }
    };
  }

  // Message actions: the quotes of replies and the reactions as the caller sees them.
  private Page withActions(Page page, String convId, Caller caller) {
    return messages.withActions(page, convId, caller.userId());
  }

  // A backward page (or the latest ones) that found nothing older in the hot table, where older
  // messages the member may read are archived.
  private static Views.ArchiveHint reachedArchive(String convId, Page page, long floor) {
    return !page.hasMore() && page.archivedSeq() > floor ? hint(convId, page) : null;
  }

  private static Views.ArchiveHint hint(String convId, Page page) {
    return new Views.ArchiveHint(convId, page.archivedSeq());
  }

  private static Views.Fetched answer(Page page, long nextAfter, Long realign, Views.ArchiveHint archiveHint) {
    return new Views.Fetched(Views.Message.of(page.messages()), page.hasMore(), nextAfter, page.latestSeq(), realign,
        archiveHint);
  }
}
