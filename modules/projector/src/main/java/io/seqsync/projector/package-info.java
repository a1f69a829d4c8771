/**
 * The projectors: the event log into PostgreSQL (rows and offsets in one transaction) and, after
 * each commit, the outcomes announced on Kafka ({@code seqsync.announcements}), then the Redis index
 * and push over Redis pub/sub (the {@link io.seqsync.projector.CommitListener}s); the delivery
 * reports into PostgreSQL ({@link io.seqsync.projector.DeliveryProjector}). docs/design.md,
 * "Return paths" and "The projection (PostgreSQL, D4, R1, R7, R25)".
 */
package io.seqsync.projector;
