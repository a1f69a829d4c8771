package io.seqsync.ingress;

import io.seqsync.redis.ConversationList;
import io.seqsync.redis.RedisLimits;
import io.seqsync.store.ArchiveQueries;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.DeliveryQueries;
import io.seqsync.store.MessageQueries;
import java.util.Optional;

/**
 * The read side the ingress answers from: PostgreSQL's hot tier and archive, Redis's list, the
 * delivery figures; and where the abuse limits are kept across instances (empty: per instance only).
 */
public record IngressStores(MessageQueries messages, ConversationQueries conversations, ConversationList list,
    ArchiveQueries archive, DeliveryQueries delivery, Optional<RedisLimits> limits) {}
