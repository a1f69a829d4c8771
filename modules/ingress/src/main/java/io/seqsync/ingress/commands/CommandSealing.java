package io.seqsync.ingress.commands;

import io.seqsync.events.model.Command;
import io.seqsync.events.model.EditMessage;
import io.seqsync.events.model.SendMessage;
import io.seqsync.events.model.UpdateDraft;
import io.seqsync.store.keys.ContentSealer;
import java.util.concurrent.CompletableFuture;

/**
 * Seals the texts of a command before it is produced (docs/design.md, "Erasure"): a send's
 * content, an edit's content, a draft's text, each under a new key of its writer; the copy that
 * reaches Kafka (and from there the events, the dead-letter topic and every other copy) carries
 * only sealed texts. The caller keeps the plaintext command for its answer. Thread-safe.
 */
public final class CommandSealing {
  /** Produces commands as they are: content encryption off (crypto.encrypt-content=false, for measuring its cost). */
  public static final CommandSealing NONE = new CommandSealing(null);

  private final ContentSealer sealer;

  public CommandSealing(ContentSealer sealer) {
    this.sealer = sealer;
  }

  /** {@code command}, or a copy with its texts sealed once their keys are stored. */
  public CompletableFuture<Command> seal(Command command) {
    if (sealer == null) {
      return CompletableFuture.completedFuture(command);
    }
    Object payload = command.getPayload();
    if (payload instanceof SendMessage send) {
      return sealer.seal(owner(command, send.getClientMsgId(), null), send.getContent())
          .thenApply(sealed -> copy(command, SendMessage.newBuilder(send).setContent(sealed).build()));
    }
    if (payload instanceof EditMessage edit) {
      return sealer.seal(owner(command, null, edit.getSeq()), edit.getContent())
          .thenApply(sealed -> copy(command, new EditMessage(edit.getSeq(), sealed)));
    }
    // An empty draft clears the draft: nothing to seal.
    if (payload instanceof UpdateDraft draft && !draft.getText().isEmpty()) {
      return sealer.seal(owner(command, null, null), draft.getText())
          .thenApply(sealed -> copy(command, new UpdateDraft(sealed)));
    }
    return CompletableFuture.completedFuture(command);
  }

  private static ContentSealer.Owner owner(Command command, String clientMsgId, Long targetSeq) {
    return new ContentSealer.Owner(command.getUserId(), command.getConvId(), clientMsgId, targetSeq);
  }

  private static Command copy(Command command, Object payload) {
    return Command.newBuilder(command).setPayload(payload).build();
  }
}
