// seqsync-client: the client half of seqsync's protocol (README.md).
export { SeqsyncClient } from './client.js';
export { MemoryStore, WebStorageStore } from './store.js';
export { IndexedDbStore } from './indexeddb-store.js';
export { SeqsyncError, parseToken } from './api.js';
export { Conversation, RECALLED_PLACEHOLDER } from './conversation.js';
export { fullJitter, Backoff } from './backoff.js';
export { newClientMsgId } from './outbox.js';
export { ACTION_TYPES, isActionNotice } from './actions.js';
export { uploadAttachment, attachmentUrl, attachmentMessageType } from './attachments.js';
