/**
 * The projector: the event log into PostgreSQL (rows and offsets in one transaction); after each
 * commit, the outcomes announced on Kafka ({@code seqsync.announcements}), then the Redis index and
 * push (the {@link io.seqsync.projector.CommitListener}s).
 */
package io.seqsync.projector;
