// Attachments (docs/api.md, "Attachments"): the bytes go straight between this client and the
// object store through presigned URLs the server mints; only the object's description travels with
// the message.

/**
 * An uploaded object as a message carries it (API.md's message `attachment`).
 * @typedef {object} Attachment
 * @property {string} key the object's key, in the sender's upload namespace
 * @property {number} size bytes
 * @property {string} contentType media type, e.g. `image/png`
 * @property {string} name file name
 * @property {number} [width] pixels, images only
 * @property {number} [height] pixels, images only
 */

/**
 * Where to GET an attachment until `expiresAt` (epoch ms): minted for members only.
 * @typedef {object} AttachmentUrl
 * @property {string} url
 * @property {number} expiresAt
 * @property {Attachment} attachment
 */

/**
 * Asks for an upload URL, PUTs the bytes there and returns the attachment to send.
 * @param {import('./api.js').Api} api
 * @param {Blob | ArrayBuffer} bytes
 * @param {{name: string, type: string, width?: number, height?: number}} what
 * @returns {Promise<Attachment>}
 */
export async function uploadAttachment(api, bytes, { name, type, width, height }) {
  const size = bytes instanceof Blob ? bytes.size : bytes.byteLength;
  const upload = await api.call('POST', '/v1/uploads', { kind: 'upload', body: { size, type, name }, repeatable: false });
  const response = await api.fetch(upload.url, { method: upload.method, headers: upload.headers, body: bytes });
  if (!response.ok) throw new Error(`the object store refused the upload: ${response.status}`);
  /** @type {Attachment} */
  const attachment = { key: upload.key, size, contentType: type, name };
  if (width && height) Object.assign(attachment, { width, height });
  return attachment;
}

/**
 * The message's type for an attachment: `image` for images, else `file`.
 * @param {Attachment} attachment
 */
export function attachmentMessageType(attachment) {
  return attachment.contentType.startsWith('image/') ? 'image' : 'file';
}

/**
 * A fresh download URL of the attachment of the message at `seq` (403 for a non-member, 410 once recalled).
 * @param {import('./api.js').Api} api
 * @param {string} convId
 * @param {number} seq
 * @returns {Promise<AttachmentUrl>}
 */
export function attachmentUrl(api, convId, seq) {
  return api.call('GET', `/v1/conversations/${encodeURIComponent(convId)}/messages/${seq}/attachment`, { kind: 'attachment' });
}
