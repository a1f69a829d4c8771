package io.seqsync.store;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import io.seqsync.store.shard.ShardMap;
import org.jdbi.v3.core.Jdbi;

/**
 * The read side of groups' roles and settings and of blocks, as the projector committed them: what
 * the ingress checks first for clear answers (the sequencer decides group rules and direct sends
 * exactly). Every method is one statement. Thread-safe: holds only the (thread-safe) Jdbi.
 */
public final class GroupQueries {
  /** A role as the API names it. */
  public static final String OWNER = "owner";
  public static final String ADMIN = "admin";
  public static final String MEMBER = "member";

  /**
   * A group: its owner (null if unrecorded), member count, setting and admins (never the owner).
   * Immutable.
   */
  public record Group(Long ownerId, int memberCount, boolean membersCanInvite, Set<Long> admins) {
    /** The role of a member of this group. */
    public String roleOf(long userId) {
      return ownerId != null && ownerId == userId ? OWNER : admins.contains(userId) ? ADMIN : MEMBER;
    }

    /** Whether {@code userId} may add and remove members: the owner or an admin. */
    public boolean managedBy(long userId) {
      return !MEMBER.equals(roleOf(userId));
    }
  }

  /** A block of the caller's: whom and since when (ms). Immutable. */
  public record Block(long blockedId, long since) {}

  private final ShardMap shards;

  /** One database for every conversation. */
  public GroupQueries(Jdbi jdbi) {
    this(ShardMap.single(jdbi));
  }

  /** Each conversation's rows in its shard of {@code shards}. */
  public GroupQueries(ShardMap shards) {
    this.shards = shards;
  }

  /** The group {@code convId}, if it exists. */
  public Optional<Group> group(String convId) {
    return shards.of(convId).withHandle(handle -> handle.createQuery("select c.owner_id, c.members_can_invite,"
            + " (select count(*) from conversation_members cm where cm.conv_id = c.conv_id) as members,"
            + " array(select cm.user_id from conversation_members cm where cm.conv_id = c.conv_id and cm.role = 'admin'"
            + " order by cm.user_id) as admins"
            + " from conversations c where c.conv_id = :conv and c.kind = 'group'")
        .bind("conv", convId)
        .map((rs, ctx) -> {
          long owner = rs.getLong("owner_id");
          Long ownerId = rs.wasNull() ? null : owner;
          Set<Long> admins = new HashSet<>(List.of((Long[]) rs.getArray("admins").getArray()));
          if (ownerId != null) {
            admins.remove(ownerId);
          }
          return new Group(ownerId, rs.getInt("members"), rs.getBoolean("members_can_invite"), Set.copyOf(admins));
        })
        .findOne());
  }

  /**
   * How many groups each of {@code userIds} belongs to, counted up to {@code cap} (a user in more
   * shows {@code cap}): each count reads at most {@code cap} index entries.
   */
  public Map<Long, Integer> groupCounts(Collection<Long> userIds, int cap) {
    if (userIds.isEmpty()) {
      return Map.of();
    }
    // Memberships are in their groups' shards: every shard's counts, summed (still at most the cap).
    Map<Long, Integer> counts = new HashMap<>();
    shards.fanOut(jdbi -> groupCounts(jdbi, userIds, cap)).forEach(shard ->
        shard.forEach((user, count) -> counts.merge(user, count, (a, b) -> Math.min(cap, a + b))));
    return counts;
  }

  private static Map<Long, Integer> groupCounts(Jdbi jdbi, Collection<Long> userIds, int cap) {
    Map<Long, Integer> counts = new HashMap<>();
    jdbi.useHandle(handle -> handle.createQuery("select u.id, (select count(*) from (select 1 from conversation_members cm"
            + " where cm.user_id = u.id and cm.conv_id like 'g:%' limit :cap) g) as groups"
            + " from unnest(:users) as u(id)")
        .bindArray("users", Long.class, userIds).bind("cap", cap)
        .map((rs, ctx) -> Map.entry(rs.getLong(1), rs.getInt(2)))
        .forEach(entry -> counts.put(entry.getKey(), entry.getValue())));
    return counts;
  }

  /** Those of {@code userIds} who blocked {@code blockedId}. */
  public Set<Long> blockersAmong(long blockedId, Collection<Long> userIds) {
    if (userIds.isEmpty()) {
      return Set.of();
    }
    // A block is stored with the pair's direct conversation, in that conversation's shard.
    return shards.fanOut(jdbi -> jdbi.withHandle(handle -> handle.createQuery("select blocker_id from blocks"
            + " where blocker_id = any(:users) and blocked_id = :blocked")
        .bindArray("users", Long.class, userIds).bind("blocked", blockedId)
        .mapTo(Long.class).collect(Collectors.toSet()))).stream().flatMap(Set::stream).collect(Collectors.toSet());
  }

  /** Whether {@code blockerId} blocked {@code blockedId}. */
  public boolean blocked(long blockerId, long blockedId) {
    return !blockersAmong(blockedId, List.of(blockerId)).isEmpty();
  }

  /** Up to {@code limit} users {@code blockerId} blocked, by user id above {@code after} (0: from the start). */
  public List<Block> blocksBy(long blockerId, long after, int limit) {
    return shards.fanOut(jdbi -> jdbi.withHandle(handle -> handle.createQuery("select blocked_id, since from blocks"
            + " where blocker_id = :blocker and blocked_id > :after order by blocked_id limit :limit")
        .bind("blocker", blockerId).bind("after", after).bind("limit", limit)
        .map((rs, ctx) -> new Block(rs.getLong(1), rs.getLong(2)))
        .list())).stream().flatMap(List::stream).sorted(java.util.Comparator.comparingLong(Block::blockedId))
        .limit(limit).toList();
  }
}
