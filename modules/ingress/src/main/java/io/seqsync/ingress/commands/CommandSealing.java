package io.seqsync.ingress.commands;

import io.seqsync.events.AttachmentRules;
import io.seqsync.events.model.Attachment;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.EditMessage;
import io.seqsync.events.model.SendMessage;
import io.seqsync.events.model.SetReaction;
import io.seqsync.events.model.UpdateDraft;
import io.seqsync.store.keys.ContentSealer;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Seals the texts of a command before it is produced (docs/design.md, "Erasure"): a send's
 * content with its attachment's name and key, an edit's content, a draft's text, each under a new
 * key of its writer, and a reaction's emoji under its writer's key for the message; the copy that
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
      return sealSend(command, send);
    }
    if (payload instanceof SetReaction reaction) {
      return sealer.sealReaction(owner(command, null, reaction.getSeq()), reaction.getEmoji())
          .thenApply(sealed -> copy(command, new SetReaction(reaction.getSeq(), sealed, reaction.getOn())));
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

  // The content, and an attachment's name and the random part of its key, under the send's one key.
  private CompletableFuture<Command> sealSend(Command command, SendMessage send) {
    Attachment attachment = send.getAttachment();
    List<String> texts = attachment == null ? List.of(send.getContent())
        : List.of(send.getContent(), attachment.getName(), AttachmentRules.keySecret(attachment.getKey()));
    return sealer.sealAll(owner(command, send.getClientMsgId(), null), texts).thenApply(sealed -> {
      SendMessage.Builder builder = SendMessage.newBuilder(send).setContent(sealed.get(0));
      if (attachment != null) {
        builder.setAttachment(Attachment.newBuilder(attachment).setName(sealed.get(1))
            .setKey(AttachmentRules.keyPrefix(attachment.getKey()) + sealed.get(2)).build());
      }
      return copy(command, builder.build());
    });
  }

  private static ContentSealer.Owner owner(Command command, String clientMsgId, Long targetSeq) {
    return new ContentSealer.Owner(command.getUserId(), command.getConvId(), clientMsgId, targetSeq);
  }

  private static Command copy(Command command, Object payload) {
    return Command.newBuilder(command).setPayload(payload).build();
  }
}
