package io.seqsync.ingress.api;

import io.seqsync.events.ConvId;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.store.ArchiveQueries;
import io.seqsync.store.StoredMessage;
import java.util.List;
import java.util.Map;

/**
 * GET /v1/archive/messages (R22): a conversation's history older than the hot tier, newest first,
 * in the paging lane and within the archive's own read budget (a slower read is a 503
 * {@code archive_timeout}, never a held connection). Members only; a group member reads from where
 * they joined, as in the hot tier.
 */
public final class ArchiveEndpoint {
  /** The query, validated: {@code convId}; optionally {@code before} (epoch ms), {@code beforeSeq}, {@code limit} (1-50). */
  record Request(ConvId convId, long before, long beforeSeq, int limit) {
    static Request parse(Map<String, List<String>> query) {
      List<String> convId = query.get("convId");
      if (convId == null || convId.isEmpty()) {
        throw ApiException.badRequest("missing_parameter", "convId is required");
      }
      if (convId.size() > 1) {
        throw FetchRequest.invalid("convId is given more than once");
      }
      Long before = FetchRequest.number(query, "before", 0);
      Long beforeSeq = FetchRequest.number(query, "beforeSeq", 1);
      Long limit = FetchRequest.number(query, "limit", 1);
      if (limit != null && limit > FetchRequest.MAX_LIMIT) {
        throw FetchRequest.invalid("limit must be 1-" + FetchRequest.MAX_LIMIT);
      }
      return new Request(AccessControl.convId(convId.get(0)), before == null ? Long.MAX_VALUE : before,
          beforeSeq == null ? Long.MAX_VALUE : beforeSeq, limit == null ? FetchRequest.MAX_LIMIT : limit.intValue());
    }
  }

  private final AccessControl access;
  private final ArchiveQueries archive;

  public ArchiveEndpoint(AccessControl access, ArchiveQueries archive) {
    this.access = access;
    this.archive = archive;
  }

  /** GET /v1/archive/messages?convId=&before=&beforeSeq=&limit=. */
  public Answer messages(Caller caller, ApiRequest http) {
    Request request = Request.parse(http.queryParams());
    long floor = access.requireMember(caller, request.convId());
    ArchiveQueries.Page page;
    try {
      page = archive.page(request.convId().value(), request.before(), request.beforeSeq(), floor, request.limit());
    } catch (ArchiveQueries.TooSlow e) {
      throw ApiException.retryLater(503, "archive_timeout", "the archive did not answer within its budget; retry", 1);
    }
    StoredMessage oldest = page.messages().isEmpty() ? null : page.messages().get(page.messages().size() - 1);
    return Answer.ok(new Views.Archived(Views.Message.of(page.messages()), page.hasMore(),
        page.hasMore() ? oldest.createTime() : null, page.hasMore() ? oldest.seq() : null));
  }
}
