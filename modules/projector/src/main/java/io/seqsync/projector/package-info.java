/**
 * The projectors: the event log into PostgreSQL (rows and offsets in one transaction); after each
 * commit, the outcomes announced on Kafka ({@code seqsync.announcements}, each to the partition its
 * waiting instance reads: {@link io.seqsync.projector.AnnouncementPublisher}), then the {@link
 * io.seqsync.projector.CommitListener}s in order: the Redis index ({@link
 * io.seqsync.projector.ConversationIndexer}), then push over Redis pub/sub, one channel per
 * instance, each told only of its own sockets' users ({@link io.seqsync.projector.PushPublisher});
 * the delivery reports into PostgreSQL ({@link io.seqsync.projector.DeliveryProjector}). What each
 * event does to the tables is in {@code projector.postgres}, the {@code replay} subcommand in
 * {@code projector.replay}, erasure and retention in {@code projector.erasure}. docs/design.md,
 * "Return paths" and "The projection (PostgreSQL, D4, R1, R7, R25)".
 */
package io.seqsync.projector;
