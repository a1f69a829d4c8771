package io.seqsync.ingress.attachments;

import io.seqsync.events.AttachmentRules;
import io.seqsync.objects.ObjectStore;

/** Attachments on: the object store their bytes go to, and what an attachment may be. */
public record Uploads(ObjectStore store, AttachmentRules rules) {}
