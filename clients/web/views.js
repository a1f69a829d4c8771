// How the chat shows things: a conversation's messages (one <ol> per conversation, built as
// messages arrive, shown when opened) and the conversation list. Rendering a message is what the
// library's ack waits for: a message that cannot be shown is reported instead (R12, R17).
import { describeNotice } from './actions.js';

import { describeAttachment, renderAttachment } from './attachments.js';
import { fromSystem } from './system.js';

const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

/** The name a conversation goes by for `me`. */
export function titleOf(conv, me) {
  if (conv.name) return conv.name;
  const [, a, b] = conv.convId.split(':');
  return conv.convId.startsWith('d:') ? `User ${a === me ? b : a}` : conv.convId;
}

/** A line of text for a message (also the list's preview). Throws when the content cannot be shown. */
export function describe(message) {
  if (message.recalled) return 'message recalled';
  const notice = describeNotice(message);
  if (notice !== null) return notice;
  if (message.attachment) return describeAttachment(message);
  switch (message.type) {
    case 'text': return message.content;
    case 'image': return `[image] ${JSON.parse(message.content).url}`; // content: {"url", "width", "height"}
    case 'file': return `[file] ${JSON.parse(message.content).name}`; // content: {"name", "url", "size"}
    case 'recall': return 'a message was recalled';
    case 'system': {
      const change = JSON.parse(message.content);
      const added = (change.added ?? []).join(', ');
      const removed = (change.removed ?? []).join(', ');
      const roles = Object.entries(change.roles ?? {}).map(([userId, role]) => `${userId} is ${role}`).join(', ');
      const settings = change.settings
        ? (change.settings.membersCanInvite ? 'members can invite' : 'only admins invite') : '';
      return [added && `added ${added}`, removed && `removed ${removed}`, roles, settings].filter(Boolean).join('; ')
        || 'group changed';
    }
    default: throw new Error(`unknown message type ${message.type}`);
  }
}

/** The messages of every conversation this page knows, each in its own list, by seq. */
export class MessageViews {
  constructor(me, actions) {
    this.me = me;
    this.actions = actions; // {recall(convId, seq), attachmentUrl(convId, seq), decorate(item, convId, message, meta)}
    this.lists = new Map();
    this.receipts = new Map(); // convId -> highest seq another member read
  }

  list(convId) {
    let list = this.lists.get(convId);
    if (!list) {
      list = el('ol', 'messages');
      list.dataset.conv = convId;
      this.lists.set(convId, list);
    }
    return list;
  }

  /** Renders `message`; returns null when rendered, else why it could not be. */
  show(convId, message) {
    const list = this.list(convId);
    const item = el('li');
    item.dataset.seq = String(message.seq);
    let failure = null;
    try {
      this.fill(item, convId, message);
    } catch (error) {
      failure = `unreadable ${message.type} message: ${error.message}`;
      item.className = 'unreadable';
      item.replaceChildren(el('span', 'text', 'this message could not be displayed'));
    }
    list.querySelector(`li[data-client-msg-id="${CSS.escape(message.clientMsgId)}"]:not([data-seq])`)?.remove();
    const existing = list.querySelector(`li[data-seq="${message.seq}"]`);
    if (existing) existing.replaceWith(item);
    else insertBySeq(list, item, message.seq);
    this.markSeen(convId);
    return failure;
  }

  /** A sent message not committed yet: shown at the end with a pending mark until its seq arrives. */
  showPending(convId, pending) {
    const item = el('li', 'mine pending');
    item.dataset.clientMsgId = pending.clientMsgId;
    item.append(el('span', 'text', pending.attachment ? describeAttachment(pending) : pending.content), el('span', 'meta pending-mark', pending.status === 'failed' ? 'not sent' : 'sending…'));
    this.list(convId).querySelector(`li[data-client-msg-id="${CSS.escape(pending.clientMsgId)}"]:not([data-seq])`)?.remove();
    this.list(convId).append(item);
  }

  /** Another member read up to `seq`: "seen" under our latest message at or below it (R19). */
  receipt(convId, seq) {
    this.receipts.set(convId, Math.max(seq, this.receipts.get(convId) ?? 0));
    this.markSeen(convId);
  }

  markSeen(convId) {
    const read = this.receipts.get(convId) ?? 0;
    const list = this.list(convId);
    list.querySelectorAll('.receipt').forEach((node) => node.remove());
    const mine = [...list.querySelectorAll('li.mine[data-seq]')].filter((node) => Number(node.dataset.seq) <= read);
    mine.at(-1)?.append(el('span', 'meta receipt', 'seen'));
  }

  fill(item, convId, message) {
    const text = describe(message);
    const mine = message.senderId === this.me;
    item.dataset.clientMsgId = message.clientMsgId;
    if (message.type === 'system' || message.type === 'recall' || fromSystem(message)) item.className = 'notice';
    else item.className = [mine ? 'mine' : '', message.recalled ? 'recalled' : ''].join(' ').trim();
    item.append(el('span', 'text', text));
    if (message.attachment && !message.recalled) renderAttachment(item, convId, message, this.actions.attachmentUrl);
    const meta = el('span', 'meta', `${mine ? 'you' : fromSystem(message) ? 'system' : `user ${message.senderId}`} · #${message.seq} · ${new Date(message.createTime).toLocaleTimeString()}`);
    if (mine && !message.recalled && ['text', 'image', 'file'].includes(message.type)) {
      const recall = el('button', 'recall', 'recall');
      recall.type = 'button';
      recall.addEventListener('click', () => this.actions.recall(convId, message.seq));
      meta.append(recall);
    }
    this.actions.decorate?.(item, convId, message, meta);
    item.append(meta);
  }
}

function insertBySeq(list, item, seq) {
  const after = [...list.querySelectorAll('li[data-seq]')].find((node) => Number(node.dataset.seq) > seq);
  list.insertBefore(item, after ?? list.querySelector('li:not([data-seq])'));
}

/** The conversation list: name, last message or draft, unread badge (R20, R21). */
export function renderList(container, conversations, { me, openConvId, onOpen }) {
  container.replaceChildren(...conversations.map((conv) => {
    const item = el('li', conv.convId === openConvId ? 'open' : '');
    item.dataset.conv = conv.convId;
    item.append(el('span', 'name', titleOf(conv, me)));
    const badge = el('span', 'badge', String(conv.unread));
    badge.hidden = conv.unread === 0;
    item.append(badge);
    if (conv.mentions > 0) item.append(el('span', 'mention-badge', `@${conv.mentions}`));
    let preview = '';
    if (conv.draft) preview = `Draft: ${conv.draft}`;
    else if (conv.lastMessage) {
      try { preview = describe(conv.lastMessage); } catch { preview = 'a message'; }
    }
    item.append(el('span', conv.draft ? 'last draft' : 'last', preview));
    item.addEventListener('click', () => onOpen(conv.convId));
    return item;
  }));
}
