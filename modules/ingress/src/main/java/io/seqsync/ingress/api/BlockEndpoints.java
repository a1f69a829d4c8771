package io.seqsync.ingress.api;

import io.seqsync.events.Commands;
import io.seqsync.events.ConvId;
import io.seqsync.events.UserIds;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.commands.CommandRoundTrip;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.store.GroupQueries;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The handlers of blocks. A block is a command on the pair's direct conversation, so the sequencer
 * decides it in that conversation's order, exactly: a send of the blocked user's that comes after
 * the block is refused (403 {@code blocked}), one before it is not. The list reads the projection.
 */
public final class BlockEndpoints {
  private static final int MAX_LIMIT = 1_000;

  private final GroupQueries groups;
  private final CommandRoundTrip roundTrip;

  public BlockEndpoints(GroupQueries groups, CommandRoundTrip roundTrip) {
    this.groups = groups;
    this.roundTrip = roundTrip;
  }

  /** PUT /v1/blocks/{userId}. */
  public CompletableFuture<Answer> block(Caller caller, ApiRequest http) {
    return set(caller, http, true);
  }

  /** DELETE /v1/blocks/{userId}. */
  public CompletableFuture<Answer> unblock(Caller caller, ApiRequest http) {
    return set(caller, http, false);
  }

  /** GET /v1/blocks?after={userId}&limit=: the users the caller blocked, by user id. */
  public Answer list(Caller caller, ApiRequest http) {
    String afterText = http.queryParam("after");
    long after = afterText == null ? 0 : userId(afterText, "after");
    int limit = limit(http.queryParam("limit"));
    List<GroupQueries.Block> page = groups.blocksBy(caller.userId(), after, limit + 1);
    List<Views.BlockedUser> blocks = page.stream().limit(limit)
        .map(block -> new Views.BlockedUser(Long.toString(block.blockedId()), block.since())).toList();
    String next = page.size() > limit ? blocks.get(limit - 1).userId() : null;
    return Answer.ok(new Views.Blocks(blocks, next));
  }

  private CompletableFuture<Answer> set(Caller caller, ApiRequest http, boolean blocked) {
    long other = userId(http.pathParam("userId"), "userId");
    if (other == caller.userId()) {
      throw ApiException.badRequest("invalid_parameter", "a user cannot block themselves");
    }
    String userId = Long.toString(other);
    if (groups.blocked(caller.userId(), other) == blocked) {
      return CompletableFuture.completedFuture(Answer.ok(new Views.BlockChanged(userId, blocked, "unchanged")));
    }
    String convId = ConvId.direct(caller.userId(), other).value();
    return roundTrip.submit(new Commands(caller.userId(), caller.deviceId()).block(convId, blocked))
        .thenApply(result -> result instanceof CommandRoundTrip.Result.Applied
            ? Answer.ok(new Views.BlockChanged(userId, blocked, "applied"))
            : Answer.json(202, new Views.BlockChanged(userId, blocked, "accepted")));
  }

  private static long userId(String text, String name) {
    return UserIds.parse(text).orElseThrow(() ->
        ApiException.badRequest("invalid_parameter", name + " must be a user id (a positive 64-bit decimal string)"));
  }

  private static int limit(String text) {
    if (text == null) {
      return 100;
    }
    try {
      int limit = Integer.parseInt(text);
      if (limit >= 1 && limit <= MAX_LIMIT) {
        return limit;
      }
    } catch (NumberFormatException ignored) {
      // answered below
    }
    throw ApiException.badRequest("invalid_parameter", "limit must be 1.." + MAX_LIMIT);
  }
}
