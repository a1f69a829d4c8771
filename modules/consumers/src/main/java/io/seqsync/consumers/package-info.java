/**
 * The Kafka runtime seqsync's services share: the one consumer loop of the projectors and the
 * replies listener ({@link io.seqsync.consumers.ConsumerLoop}, with where it keeps its offsets,
 * {@link io.seqsync.consumers.OffsetStore}), the topics' declaration
 * ({@link io.seqsync.consumers.TopicAdmin}) and the projection's lag behind the event log
 * ({@link io.seqsync.consumers.ProjectionLag}). Speaks Kafka only.
 */
package io.seqsync.consumers;
