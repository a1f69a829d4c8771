// The client's options and the events it emits (client.js), as JSDoc types: the declarations
// (types/) and the type checks are made from them.

/** @typedef {import('./conversation.js').Message} Message */
/** @typedef {import('./connection.js').ConnectionState} ConnectionState */
/** @typedef {import('./outbox.js').PendingSend} PendingSend */
/** @typedef {ReturnType<typeof import('./list.js').summary>} ConversationSummary */

/**
 * @typedef {object} ClientEvents
 * @property {{convId: string, message: Message, source: import('./conversation.js').MessageSource}} message
 *   a message new to this client; the live tail's come in seq order without gaps
 * @property {{convId: string, message?: Message, pending?: PendingSend}} updated a held message changed (recalled,
 *   edited, reacted to), or a send failed for good
 * @property {{convId: string, userId: string, seq: number}} receipt another member read up to seq (R19)
 * @property {{convId: string, text: string | null, deviceId: string}} draft the user's draft, written on another device (R21)
 * @property {{conversations: ConversationSummary[]}} list the conversation list or its unread counts changed
 * @property {{state: ConnectionState, attempt: number, delayMs?: number}} state the connection's state changed
 * @property {{convId: string, added: string[], removed: string[]}} membership
 * @property {{error: unknown, during: string}} error something failed that the client will retry or has given up
 * @property {import('./liveness.js').Typing} typing another member started typing, or stopped (or their timeout passed)
 * @property {import('./liveness.js').Presence} presence a watched user's presence, now or changed
 * @property {import('./liveness.js').Delivered} delivered a device of another member got messages up to seq
 * @property {{convId: string}} cleared the conversation's local messages were deleted (clearLocalMessages)
 */

/**
 * @typedef {object} ClientOptions
 * @property {string} baseUrl the server, e.g. `https://chat.example.com`
 * @property {string} token a bearer token (API.md: Identity)
 * @property {() => Promise<string>} [getToken] a new token for the same user and device: asked for when the server
 *   refuses the current one (an HTTP 401, or the stream closed with 4401 as the token expired or its device signed
 *   out) and before the stream connects with a token that expires within 5 s; without it such a client stops
 *   being served until it is made anew with a new token
 * @property {any} [WebSocket] the WebSocket constructor (default: the global one; in Node 20 pass the ws package's)
 * @property {typeof fetch} [fetch] default: the global fetch
 * @property {import('./store.js').SeqsyncStore} [store] where cursors and unsent messages persist (default: memory);
 *   a store with the message methods (IndexedDbStore, SqliteStore, MemoryStore) also keeps the local copy
 * @property {number} [retentionDays] how long the local copy keeps a message, from its createTime (default 30)
 * @property {'http' | 'stream'} [handshake] `stream` (default, the library's one path): the handshake the stream
 *   sends first, which costs no request and carries each conversation's first screen; `http`: POST /v1/sync with
 *   this device's cursors on every connect as well (one request more; kept for comparison in scripts/bench-reconnect)
 * @property {import('./backoff.js').BackoffOptions} [backoff] reconnects, and a failed pull's retries
 * @property {number} [ackIntervalMs] how long acks and telemetry are batched (default 200)
 * @property {number} [draftDelayMs] how long a draft waits for more typing before it is saved (default 300)
 * @property {boolean} [telemetry] report renders (R24, default true)
 * @property {number} [pingIntervalMs]
 */

export {};
