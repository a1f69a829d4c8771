package io.seqsync.ingress.api;

import io.seqsync.events.ConvId;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.MessageQueries;
import io.seqsync.store.MessageQueries.Page;
import io.seqsync.store.replica.Routed;
import java.util.function.Function;

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
 * are archived. A page may come from a read replica, never older than what the request proves the
 * client saw ({@code after}, the device cursor) nor than what this instance announced committed
 * (docs/design.md, "Read replicas"). Thread-safe.
 */
public final class FetchService {
  static final int REALIGN_PAGE = 20;

  private final Routed<MessageQueries> messages;
  private final ConversationQueries conversations;
  private final SyncDepth syncDepth;

  public FetchService(Routed<MessageQueries> messages, ConversationQueries conversations, SyncDepth syncDepth) {
    this.messages = messages;
    this.conversations = conversations;
    this.syncDepth = syncDepth;
  }

  public Views.Fetched fetch(Caller caller, ConvId convId, FetchRequest request, long floor) {
    String conv = convId.value();
    return switch (request.mode()) {
      case LAST -> {
        Page page = page(conv, 0, caller, queries -> queries.last(conv, request.count(), floor));
        yield answer(page, page.lastSeqOr(page.latestSeq()), null, reachedArchive(conv, page, floor));
      }
      case BEFORE -> {
        Page page = page(conv, 0, caller, queries -> queries.before(conv, request.before(), request.count(), floor));
        yield answer(page, page.lastSeqOr(Math.min(request.before() - 1, page.latestSeq())), null,
            reachedArchive(conv, page, floor));
      }
      case AFTER, FROM_CURSOR -> {
        long after = request.mode() == FetchRequest.Mode.AFTER
            ? request.after() : conversations.deviceCursor(caller.userId(), caller.deviceId(), conv);
        long from = Math.max(after, floor);
        Page page = page(conv, after, caller, queries -> request.until() == null
            ? queries.after(conv, from, request.count())
            : queries.range(conv, from, request.until(), request.count()));
        Views.Fetched fetched;
        if (after > page.latestSeq()) {
          Page latest = page(conv, 0, caller, queries -> queries.last(conv, REALIGN_PAGE, floor));
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

  // A page with its message actions (the quotes of replies, the reactions as the caller sees them),
  // both from one database, whose watermark is at least seen.
  private Page page(String convId, long seen, Caller caller, Function<MessageQueries, Page> query) {
    return messages.conversation(convId, seen,
        queries -> queries.withActions(query.apply(queries), convId, caller.userId()), Page::latestSeq);
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
