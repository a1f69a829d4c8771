package io.seqsync.notifier;

import io.seqsync.events.model.Event;

/** An event of the log with where it was read: partition and offset. Immutable. */
public record LoggedEvent(int partition, long offset, Event event) {}
