package io.seqsync.ingress.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.Json;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The bodies of group creation and membership changes, checked field by field. User ids are
 * decimal strings as API.md says (positive 64-bit integers); JSON integers are taken too. Lists
 * longer than the group limit are a 413; duplicates count once.
 */
final class GroupRequests {
  static final int MAX_NAME_LENGTH = 200;

  /** {@code POST /v1/groups}: the group's name and the members besides the creator. */
  record Creation(String name, Set<Long> members) {}

  /** {@code POST /v1/conversations/{convId}/members}: who to add and who to remove. */
  record Change(Set<Long> add, Set<Long> remove) {}

  private GroupRequests() {}

  static Creation creation(ObjectNode body, int maxMembers) {
    String name = Json.string(body, "name").strip();
    if (name.isEmpty() || name.length() > MAX_NAME_LENGTH || name.chars().anyMatch(Character::isISOControl)) {
      throw ApiException.badRequest("invalid_field",
          "name must be 1-" + MAX_NAME_LENGTH + " characters without control characters");
    }
    return new Creation(name, userIds(body, "members", true, maxMembers));
  }

  static Change change(ObjectNode body, int maxMembers) {
    Set<Long> add = userIds(body, "add", false, maxMembers);
    Set<Long> remove = userIds(body, "remove", false, maxMembers);
    if (add.isEmpty() && remove.isEmpty()) {
      throw ApiException.badRequest("invalid_field", "add or remove must name at least one user");
    }
    if (add.stream().anyMatch(remove::contains)) {
      throw ApiException.badRequest("invalid_field", "a user cannot be both added and removed");
    }
    return new Change(add, remove);
  }

  private static Set<Long> userIds(ObjectNode body, String field, boolean required, int maxMembers) {
    JsonNode list = body.get(field);
    if (list == null || list.isNull()) {
      if (required) {
        throw ApiException.badRequest("missing_field", field + " is required");
      }
      return Set.of();
    }
    if (!list.isArray()) {
      throw ApiException.badRequest("invalid_field", field + " must be an array of user ids, not " + Json.kind(list));
    }
    if (list.size() > maxMembers) {
      throw ApiException.tooLarge("too_many_members", "a group holds at most " + maxMembers + " members");
    }
    Set<Long> ids = new LinkedHashSet<>();
    for (int i = 0; i < list.size(); i++) {
      ids.add(userId(list.get(i), field + "[" + i + "]"));
    }
    return ids;
  }

  private static long userId(JsonNode value, String field) {
    return Json.id(value, field, "a user id");
  }

  /** The ids in order, {@code first} leading. */
  static List<Long> withFirst(long first, Set<Long> others) {
    Set<Long> ordered = new LinkedHashSet<>();
    ordered.add(first);
    ordered.addAll(others);
    return List.copyOf(ordered);
  }
}
