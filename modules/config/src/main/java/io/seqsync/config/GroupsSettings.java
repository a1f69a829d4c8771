package io.seqsync.config;

import static io.seqsync.config.SeqsyncConfig.require;

/**
 * The ingress's group limits (the sequencer keeps {@code sequencer.max-group-members}): at most
 * {@code maxAddedPerRequest} users added by one request (creation or change), and a user in at
 * most {@code maxPerUser} groups, checked against the committed projection when the user is
 * added or creates a group.
 */
public record GroupsSettings(int maxAddedPerRequest, int maxPerUser) {
  public GroupsSettings {
    require(maxAddedPerRequest > 0, "groups.max-added-per-request must be positive");
    require(maxPerUser > 0, "groups.max-per-user must be positive");
  }
}
