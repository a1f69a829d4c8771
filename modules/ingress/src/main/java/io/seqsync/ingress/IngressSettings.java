package io.seqsync.ingress;

import io.seqsync.config.FetchSettings;
import io.seqsync.config.GroupsSettings;
import io.seqsync.config.Integrations;
import io.seqsync.config.LimitsSettings;
import io.seqsync.config.SeqsyncConfig;
import java.time.Duration;

/**
 * What the HTTP ingress needs from the configuration: where to listen, how long a send waits for
 * its committed seq before answering 202 ({@code http.reply-budget}), and the largest content a
 * message may have ({@code sequencer.max-content-bytes}) and the most members a group may have
 * ({@code sequencer.max-group-members}): the same limits the sequencer enforces; the fetches' rate
 * and lanes ({@code fetch.*}); whether the push stream accepts permessage-deflate
 * ({@code http.stream-compression}); how long delivery figures are kept once computed
 * ({@code delivery.figures-cache}); the abuse limits ({@code limits.*}); the group limits
 * ({@code groups.*}); the pre-send hook and service tokens ({@code hooks.pre-send.*}, {@code auth.service-*}).
 */
public record IngressSettings(String host, int port, Duration replyBudget, int maxContentBytes, int maxGroupMembers,
    FetchSettings fetch, boolean streamCompression, Duration deliveryCache, LimitsSettings limits,
    GroupsSettings groups, Integrations integrations, Duration editWindow) {
  public IngressSettings {
    if (port < 0 || port > 65535 || replyBudget.isNegative() || maxContentBytes <= 0 || maxGroupMembers < 2
        || deliveryCache.isNegative()) {
      throw new IllegalArgumentException("invalid ingress settings");
    }
  }

  public static IngressSettings from(SeqsyncConfig config) {
    return new IngressSettings(config.http().host(), config.http().port(), config.http().replyBudget(),
        config.sequencer().maxContentBytes(), config.sequencer().maxGroupMembers(), config.fetch(),
        config.http().streamCompression(), config.delivery().figuresCache(), config.limits(), config.groups(),
        config.integrations(), config.sequencer().editWindow());
  }

  /** The largest request body accepted: room for the largest content, JSON-escaped, and the rest. */
  long maxRequestBytes() {
    return Math.max(1L << 20, 6L * maxContentBytes + 64 * 1024);
  }
}
