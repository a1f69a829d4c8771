package io.seqsync.ingress;

import io.seqsync.redis.ConversationList;
import io.seqsync.store.ArchiveQueries;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.DeliveryQueries;
import io.seqsync.store.GroupQueries;
import io.seqsync.store.MessageQueries;

/**
 * The read side the ingress answers from: PostgreSQL's hot tier and archive, Redis's list, the
 * delivery figures, groups' roles and blocks.
 */
public record IngressStores(MessageQueries messages, ConversationQueries conversations, ConversationList list,
    ArchiveQueries archive, DeliveryQueries delivery, GroupQueries groups) {}
