// Message actions in the web client: edit (the sender's own messages), react (a few quick emoji;
// a reaction of mine is a toggle), reply (a quote above the composer, then above the message),
// and @mentions by member id with autocomplete from the conversation's members. The library keeps
// each message's state (edited, reactions, replyTo, mentions) current; this only shows it and
// asks for changes. Edit and reaction notices are messages in the seq order too: rendered as
// hidden items, so that they are acked like everything else.

const QUICK_REACTIONS = ['👍', '❤️', '😂', '🎉'];
const MENTION = /@(\d{1,19})\b/g;

const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

function button(className, text, title, onClick) {
  const node = el('button', className, text);
  node.type = 'button';
  if (title) node.title = title;
  node.addEventListener('click', onClick);
  return node;
}

/** What a message-action notice says in the conversation list's preview, or null for other messages. */
export function describeNotice(message) {
  if (message.type === 'edit') return 'edited a message';
  if (message.type === 'reaction') return 'reacted to a message';
  return null;
}

export class MessageActions {
  /**
   * @param {import('./lib/index.js').SeqsyncClient} client
   * @param {string} me
   * @param {{composer: HTMLFormElement, bar: HTMLElement, suggestions: HTMLElement}} elements
   * @param {(error: unknown) => void} report
   */
  constructor(client, me, { composer, bar, suggestions }, report) {
    this.client = client;
    this.me = me;
    this.composer = composer;
    this.bar = bar;
    this.suggestions = suggestions;
    this.report = report;
    /** @type {{mode: 'reply' | 'edit', convId: string, seq: number} | null} */
    this.target = null;
    this.members = [];
    composer.elements.text.addEventListener('input', () => this.suggest());
  }

  /** A conversation was opened: its members are whom one can mention. */
  opened(conv) {
    this.cancel();
    const [, a, b] = conv.convId.split(':');
    this.members = (conv.members ?? (conv.kind === 'direct' ? [a, b] : [])).filter((id) => id !== this.me);
  }

  /**
   * Adds to a message's item what actions show: the quote it replies to, the edited mark, its
   * reactions, and the buttons to reply, react and (mine) edit. A notice item is hidden.
   */
  decorate(item, convId, message, meta) {
    if (describeNotice(message) !== null) {
      item.className = 'action-notice';
      item.hidden = true;
      return;
    }
    if (message.replyTo) {
      // A pushed reply names the seq only: the quote then comes from the message held here.
      const held = this.client.conversation(convId).messages.get(message.replyTo.seq);
      const quote = message.replyTo.quote ?? held?.content ?? '…';
      const sender = message.replyTo.senderId ?? held?.senderId;
      item.prepend(el('blockquote', 'reply-quote', `${sender ? `user ${sender} ` : ''}#${message.replyTo.seq}: ${quote}`));
    }
    if (message.mentions?.includes(this.me)) item.classList.add('mentions-me');
    if (message.recalled || !['text', 'image', 'file'].includes(message.type)) return;
    if (message.edited) meta.prepend(el('span', 'edited', 'edited · '));
    const reactions = el('span', 'reactions');
    for (const reaction of message.reactions ?? []) {
      const chip = button(`reaction${reaction.me ? ' mine' : ''}`, `${reaction.emoji} ${reaction.count}`,
        reaction.me ? 'remove your reaction' : 'react too', () => this.toggle(convId, message.seq, reaction.emoji, reaction.me));
      chip.dataset.emoji = reaction.emoji;
      reactions.append(chip);
    }
    item.append(reactions);
    const tools = el('span', 'message-tools');
    for (const emoji of QUICK_REACTIONS) {
      const mine = (message.reactions ?? []).some((r) => r.emoji === emoji && r.me);
      tools.append(button('react', emoji, `react ${emoji}`, () => this.toggle(convId, message.seq, emoji, mine)));
    }
    tools.append(button('reply', 'reply', 'reply to this message', () => this.start('reply', convId, message)));
    if (message.senderId === this.me && message.type === 'text') {
      tools.append(button('edit', 'edit', 'edit your message', () => this.start('edit', convId, message)));
    }
    meta.append(tools);
  }

  toggle(convId, seq, emoji, mine) {
    (mine ? this.client.unreact(convId, seq, emoji) : this.client.react(convId, seq, emoji)).catch(this.report);
  }

  start(mode, convId, message) {
    this.target = { mode, convId, seq: message.seq };
    this.bar.hidden = false;
    this.bar.replaceChildren(el('span', 'target', `${mode === 'edit' ? 'Editing' : 'Replying to'} #${message.seq}: ${message.content.slice(0, 80)}`),
      button('cancel', '×', 'cancel', () => this.cancel()));
    const box = this.composer.elements.text;
    if (mode === 'edit') box.value = message.content;
    box.focus();
  }

  cancel() {
    this.target = null;
    this.bar.hidden = true;
    this.bar.replaceChildren();
  }

  /**
   * The composer's text is submitted in `convId`: an edit when editing (true: handled here), else
   * the send's options (its reply and mentions).
   * @returns {true | {replyTo?: number, mentions?: string[]}}
   */
  submit(convId, text) {
    const target = this.target?.convId === convId ? this.target : null;
    this.cancel();
    if (target?.mode === 'edit') {
      this.client.edit(convId, target.seq, text).catch(this.report);
      return true;
    }
    const mentions = [...new Set([...text.matchAll(MENTION)].map((match) => match[1]))]
      .filter((id) => this.members.includes(id));
    return { replyTo: target?.seq, mentions };
  }

  // "@1" before the caret offers the members whose id starts so; a click completes the word.
  suggest() {
    const box = this.composer.elements.text;
    const caret = box.selectionStart ?? box.value.length;
    const word = /@(\d*)$/.exec(box.value.slice(0, caret));
    const matches = word ? this.members.filter((id) => id.startsWith(word[1])) : [];
    this.suggestions.hidden = matches.length === 0;
    this.suggestions.replaceChildren(...matches.map((id) => button('mention', `@${id}`, `mention user ${id}`, () => {
      box.value = `${box.value.slice(0, word.index)}@${id} ${box.value.slice(caret)}`;
      this.suggestions.hidden = true;
      box.focus();
    })));
  }
}
