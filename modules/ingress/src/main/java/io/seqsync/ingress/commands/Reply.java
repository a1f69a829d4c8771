package io.seqsync.ingress.commands;

import io.seqsync.events.model.DuplicateCommand;
import io.seqsync.events.model.StoredOutcome;

/** What a command came to, as the ingress learns it: an announced outcome, or a duplicate reply. */
public sealed interface Reply {
  /** The projector committed the command's effect (or its rejection) in PostgreSQL. */
  record Announced(StoredOutcome outcome) implements Reply {}

  /** The sequencer found the command repeats an applied one; names what the original produced. */
  record Duplicate(DuplicateCommand duplicate) implements Reply {}
}
