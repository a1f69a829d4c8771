package io.seqsync.app;

import io.seqsync.config.KafkaConnection;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.GroupState;

/**
 * The consumer groups as the broker's group coordinator sees them (an admin client of its own),
 * for the health probes: each group's state and members. Every call bounded by {@link #TIMEOUT};
 * the health checks reuse results for a second. Thread-safe.
 */
final class ConsumerGroups implements AutoCloseable {
  static final Duration TIMEOUT = Duration.ofSeconds(2);
  private static final Set<GroupState> REBALANCING = Set.of(
      GroupState.PREPARING_REBALANCE, GroupState.COMPLETING_REBALANCE, GroupState.ASSIGNING, GroupState.RECONCILING);

  /** A group as seen: its detail for the answers (id, state, members), and what is wrong with it, if anything. */
  record Reading(Map<String, Object> detail, Optional<String> problem) {}

  private final Admin admin;

  ConsumerGroups(KafkaConnection kafka) {
    this.admin = Admin.create(kafka.with(Map.of(
        AdminClientConfig.CLIENT_ID_CONFIG, "seqsync-health")));
  }

  /** The group {@code groupId} now: Stable is fine; rebalancing, empty, dead or unknown is a problem. */
  Reading read(String groupId) {
    ConsumerGroupDescription group;
    try {
      group = admin.describeConsumerGroups(List.of(groupId),
              new DescribeConsumerGroupsOptions().timeoutMs((int) TIMEOUT.toMillis()))
          .describedGroups().get(groupId).get(TIMEOUT.toMillis() + 500, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return unknown(groupId, "interrupted");
    } catch (ExecutionException e) {
      return unknown(groupId, String.valueOf(e.getCause().getMessage()));
    } catch (TimeoutException e) {
      return unknown(groupId, "no answer within " + TIMEOUT.toMillis() + " ms");
    }
    Map<String, Object> detail = new LinkedHashMap<>();
    detail.put("id", groupId);
    detail.put("state", group.groupState().toString());
    detail.put("members", members(group.members()));
    return new Reading(detail, problem(group.groupState()));
  }

  @Override
  public void close() {
    admin.close(Duration.ofSeconds(5));
  }

  private static Optional<String> problem(GroupState state) {
    if (state == GroupState.STABLE) {
      return Optional.empty();
    }
    if (REBALANCING.contains(state)) {
      return Optional.of("the group is rebalancing: its partitions are not consumed until it is Stable");
    }
    if (state == GroupState.EMPTY || state == GroupState.DEAD) {
      return Optional.of("the group has no member: nobody consumes its partitions");
    }
    return Optional.of("the group is " + state);
  }

  // Each member: its client id, host and the partitions it was given.
  private static List<Map<String, Object>> members(Collection<MemberDescription> members) {
    return members.stream().map(member -> {
      Map<String, Object> view = new LinkedHashMap<>();
      view.put("clientId", member.clientId());
      view.put("host", member.host());
      view.put("partitions", member.assignment().topicPartitions().size());
      return view;
    }).toList();
  }

  private static Reading unknown(String groupId, String error) {
    return new Reading(Map.of("id", groupId, "state", "unknown", "error", error),
        Optional.of("the group's state is unknown: " + error));
  }
}
