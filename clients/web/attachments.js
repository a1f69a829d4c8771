// Attachments in the web client: a button and drag-and-drop upload images and files (straight to
// the object store, through the URL the server presigns), and a message with an attachment shows an
// image preview or a download link, each from a download URL minted for this member when shown.

const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

/** The list's line for a message with an attachment: its kind, name and caption. */
export function describeAttachment(message) {
  const { name } = message.attachment;
  const line = `${message.attachment.contentType.startsWith('image/') ? '[image]' : '[file]'} ${name}`;
  return message.content ? `${line} ${message.content}` : line;
}

/** Adds the preview or the download link of `message`'s attachment to its list item. */
export function renderAttachment(item, convId, message, attachmentUrl) {
  const { attachment } = message;
  const holder = el('div', 'attachment');
  if (attachment.contentType.startsWith('image/')) {
    const image = el('img');
    image.alt = attachment.name;
    if (attachment.width && attachment.height) Object.assign(image, { width: attachment.width, height: attachment.height });
    holder.append(image);
  } else {
    holder.append(el('a', 'download', `⬇ ${attachment.name} (${sizeText(attachment.size)})`));
  }
  item.append(holder);
  // The URL expires (attachments.url-ttl): a link asks for a fresh one when clicked.
  const link = holder.querySelector('a');
  const load = async () => {
    const { url } = await attachmentUrl(convId, message.seq);
    const image = holder.querySelector('img');
    if (image) image.src = url;
    else Object.assign(link, { href: url, download: attachment.name });
    return url;
  };
  load().catch((error) => holder.append(el('span', 'meta', `attachment unavailable: ${error.message}`)));
  link?.addEventListener('click', (event) => {
    if (Date.now() < (link.dataset.fresh ? Number(link.dataset.fresh) : 0)) return;
    event.preventDefault();
    load().then((url) => { link.dataset.fresh = String(Date.now() + 30_000); window.open(url, '_blank'); });
  });
}

function sizeText(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

// An image's pixel size, for the message (the receiver lays out the preview before it loads).
async function dimensions(file) {
  if (!file.type.startsWith('image/')) return {};
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return {};
  }
}

/**
 * Wires the attach button (`#attach`, its file input `#attach-file`) and drops on `dropZone`:
 * each file is uploaded, then sent to the open conversation with the composer's text as caption.
 * `onSent(pending)` shows the pending send; `onError` reports a refusal (size, type).
 */
export function attachControls({ client, openConvId, dropZone, caption, onSent, onError }) {
  const input = document.querySelector('#attach-file');
  const sendFiles = async (files) => {
    const convId = openConvId();
    if (!convId) return;
    for (const file of files) {
      try {
        const attachment = await client.uploadAttachment(file, { name: file.name || 'file', type: file.type || 'application/octet-stream', ...(await dimensions(file)) });
        onSent(convId, client.sendAttachment(convId, attachment, caption()));
      } catch (error) {
        onError(error);
      }
    }
  };
  document.querySelector('#attach').addEventListener('click', () => input.click());
  input.addEventListener('change', () => { sendFiles([...input.files]).finally(() => { input.value = ''; }); });
  dropZone.addEventListener('dragover', (event) => { event.preventDefault(); dropZone.classList.add('dropping'); });
  dropZone.addEventListener('dragleave', () => dropZone.classList.remove('dropping'));
  dropZone.addEventListener('drop', (event) => {
    event.preventDefault();
    dropZone.classList.remove('dropping');
    sendFiles([...(event.dataTransfer?.files ?? [])]);
  });
}
