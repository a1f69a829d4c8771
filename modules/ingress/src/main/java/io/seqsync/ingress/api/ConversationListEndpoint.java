package io.seqsync.ingress.api;

import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.redis.ConversationList;
import io.seqsync.store.ListCursor;
import io.seqsync.store.ListEntry;
import io.seqsync.store.ListSettingsQueries;

/** GET /v1/conversations?limit&cursor: the caller's conversation list, most recent first (R20). */
public final class ConversationListEndpoint {
  static final int DEFAULT_LIMIT = 20;
  static final int MAX_LIMIT = 100;

  private final ConversationList list;
  private final ListSettingsQueries settings;

  public ConversationListEndpoint(ConversationList list, ListSettingsQueries settings) {
    this.list = list;
    this.settings = settings;
  }

  public Answer list(Caller caller, ApiRequest request) {
    int limit = limit(request.queryParam("limit"));
    String cursorText = request.queryParam("cursor");
    ListCursor cursor = cursorText == null ? null : ListCursor.parse(cursorText).orElseThrow(() ->
        ApiException.badRequest("invalid_parameter", "cursor must be the next value of an earlier page"));
    ConversationList.Page page = list.page(caller.userId(), limit, cursor);
    return Answer.ok(Views.ConversationPage.of(page, settings.of(caller.userId(),
        page.conversations().stream().map(ListEntry::convId).toList())));
  }

  private static int limit(String text) {
    if (text == null) {
      return DEFAULT_LIMIT;
    }
    // Digits only (parseInt would also take a sign), and short enough to parse.
    if (!text.isEmpty() && text.length() <= 3 && text.chars().allMatch(c -> c >= '0' && c <= '9')) {
      int limit = Integer.parseInt(text);
      if (limit >= 1 && limit <= MAX_LIMIT) {
        return limit;
      }
    }
    throw ApiException.badRequest("invalid_parameter", "limit must be an integer from 1 to " + MAX_LIMIT);
  }
}
