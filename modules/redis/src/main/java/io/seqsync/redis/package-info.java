/**
 * Redis, one server or a Redis Cluster: the conversation index behind the list and unread counts
 * (written by the projector's indexer; rebuilt, when it cannot be trusted, from the store of record
 * through {@link io.seqsync.store.IndexSource}), push notices on the instances'
 * {@code seqsync:push:<instance>} channels and their subscription, the abuse limits' buckets, the
 * registry of live push sockets, and Redis's health. Speaks Redis only. Layout and cluster rules:
 * docs/design.md, "Redis layout".
 */
package io.seqsync.redis;
