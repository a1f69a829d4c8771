// A group's roles and settings, leaving it, and blocking the other user of a direct conversation:
// HTTP calls through the library's API client; what the server committed is read back from the
// activation (roles, settings) and the caller's blocks.
const $ = (selector) => document.querySelector(selector);

export class GroupControls {
  /** @param {{api: {call: Function}}} client  @param {string} me  @param {(error: unknown) => void} report */
  constructor(client, me, report) {
    this.client = client;
    this.me = me;
    this.report = report;
    this.convId = null;
    this.group = null; // {roles, settings} of the open group
    this.blocked = new Set();
    $('#leave').addEventListener('click', () => this.leave());
    $('#block').addEventListener('click', () => this.toggleBlock());
    $('#set-role').addEventListener('submit', (event) => this.setRole(event));
    $('#invite-setting input').addEventListener('change', (event) => this.setInvite(event.target.checked));
  }

  /** Reads the caller's blocks (the first 1,000). */
  async loadBlocks() {
    const page = await this.client.api.call('GET', '/v1/blocks', { kind: 'blocks', query: { limit: 1000 } });
    this.blocked = new Set(page.blocks.map((block) => block.userId));
  }

  /** Shows the controls of `conv` (a group's after reading its activation; a direct conversation's block button). */
  async show(conv) {
    this.convId = conv.convId;
    this.group = null;
    this.render(conv);
    if (conv.convId.startsWith('g:')) {
      const activation = await this.client.api.call('GET', `/v1/conversations/${encodeURIComponent(conv.convId)}`,
        { kind: 'group' }).catch(this.report);
      if (this.convId !== conv.convId || !activation) return;
      this.group = { roles: activation.roles ?? {}, settings: activation.settings ?? { membersCanInvite: false } };
      this.render(conv);
    }
  }

  render(conv) {
    const group = conv.convId.startsWith('g:');
    const role = this.group?.roles[this.me] ?? 'member';
    const manages = role === 'owner' || role === 'admin';
    $('#leave').hidden = !group;
    $('#group-admin').hidden = !group || !this.group;
    $('#add-member').hidden = !group || !(manages || this.group?.settings.membersCanInvite);
    $('#set-role').hidden = role !== 'owner';
    $('#invite-setting').hidden = !manages;
    $('#invite-setting input').checked = Boolean(this.group?.settings.membersCanInvite);
    const roles = Object.entries(this.group?.roles ?? {}).map(([userId, r]) => `${userId}: ${r}`).join(', ');
    $('#my-role').textContent = this.group ? `You are ${role} · ${roles}` : '';
    const other = group ? null : conv.convId.split(':').slice(1).find((id) => id !== this.me);
    $('#block').hidden = !other;
    $('#block').textContent = other && this.blocked.has(other) ? 'Unblock' : 'Block';
  }

  async leave() {
    const convId = this.convId;
    await this.client.api.call('POST', `/v1/conversations/${encodeURIComponent(convId)}/leave`, { kind: 'leave' })
      .catch(this.report);
    $('#conversation').hidden = true;
  }

  async setRole(event) {
    event.preventDefault();
    const { userId, role } = event.target.elements;
    const path = `/v1/conversations/${encodeURIComponent(this.convId)}/roles/${encodeURIComponent(userId.value.trim())}`;
    await this.client.api.call('PUT', path, { kind: 'role', body: { role: role.value } }).catch(this.report);
    event.target.reset();
  }

  async setInvite(membersCanInvite) {
    await this.client.api.call('PUT', `/v1/conversations/${encodeURIComponent(this.convId)}/settings`,
      { kind: 'settings', body: { membersCanInvite } }).catch(this.report);
  }

  async toggleBlock() {
    const convId = this.convId;
    const other = convId.split(':').slice(1).find((id) => id !== this.me);
    const blocking = !this.blocked.has(other);
    const answer = await this.client.api.call(blocking ? 'PUT' : 'DELETE', `/v1/blocks/${other}`, { kind: 'block' })
      .catch(this.report);
    if (!answer) return;
    if (blocking) this.blocked.add(other); else this.blocked.delete(other);
    if (this.convId === convId) $('#block').textContent = blocking ? 'Unblock' : 'Block';
  }
}
