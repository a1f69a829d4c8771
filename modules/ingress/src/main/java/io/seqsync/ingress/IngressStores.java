package io.seqsync.ingress;

import io.seqsync.ingress.attachments.Uploads;
import io.seqsync.ingress.notify.PushStores;
import io.seqsync.redis.ConversationList;
import io.seqsync.redis.RedisLimits;
import io.seqsync.store.ArchiveQueries;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.DeliveryQueries;
import io.seqsync.store.GroupQueries;
import io.seqsync.store.MessageQueries;
import io.seqsync.store.PresenceQueries;
import io.seqsync.store.RevocationQueries;
import io.seqsync.store.ServerRequestQueries;
import io.seqsync.store.StatementTimeouts;
import io.seqsync.store.SyncQueries;
import io.seqsync.store.replica.ReplicaReads;
import java.util.Optional;

/**
 * The read side the ingress answers from: PostgreSQL's hot tier and archive, Redis's list, the
 * delivery figures, the handshake's pages, groups' roles and blocks; the count of their statements
 * PostgreSQL cancelled at the statement timeout (all of them run on the requests pool); the
 * signed-out devices, which it writes too; where the abuse limits are kept across instances
 * (empty: per instance only); what presence, typing and receipts read; the server API's idempotency
 * keys; the object store of attachments (empty: attachments off); and the pages and handshakes
 * routed to read replicas ({@code reads}; without replicas, {@code messages} and {@code sync}).
 */
public record IngressStores(MessageQueries messages, ConversationQueries conversations, ConversationList list,
    ArchiveQueries archive, DeliveryQueries delivery, SyncQueries sync, StatementTimeouts statementTimeouts,
    RevocationQueries revocations, GroupQueries groups, Optional<RedisLimits> limits,
    PresenceQueries presence, ServerRequestQueries serverRequests, Optional<Uploads> uploads, PushStores push,
    ReplicaReads reads) {}
