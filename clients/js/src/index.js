// seqsync-client: the client half of seqsync's protocol (README.md).
export { SeqsyncClient, parseToken } from './client.js';
export { MemoryStore, WebStorageStore } from './store.js';
export { SeqsyncError } from './api.js';
export { Conversation, RECALLED_PLACEHOLDER } from './conversation.js';
export { fullJitter, Backoff } from './backoff.js';
export { newClientMsgId } from './outbox.js';
