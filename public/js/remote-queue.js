// Queue tab: who sings what and roughly when; a guest's own requests are marked; the host
// reorders and removes.
const $ = (id) => document.getElementById(id);

export function formatWait(seconds, first = false) {
  if (seconds == null) return '';
  if (first) return 'next up';
  if (seconds < 60) return 'in under a minute';
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `in ~${minutes} min` : `in ~${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function showQueue(queue, { act, isHost, singerName }) {
  const mine = (entry) => {
    const name = singerName();
    return !!name && (entry.requestedBy || '').trim().toLowerCase() === name.trim().toLowerCase();
  };
  const list = $('queue');
  list.replaceChildren();
  queue.forEach((entry, index) => {
    const item = document.createElement('li');
    if (mine(entry)) item.classList.add('mine');
    const text = document.createElement('div');
    text.className = 'text';
    text.innerHTML = '<strong></strong><small></small><span class="when"></span>';
    text.querySelector('strong').textContent = `${index + 1}. ${entry.title}`;
    text.querySelector('small').textContent = entry.requestedBy ? `${entry.requestedBy} sings · ${entry.artist}` : entry.artist;
    text.querySelector('.when').textContent = formatWait(entry.startsIn, index === 0);
    item.append(text);
    if (isHost()) {
      if (index > 0) {
        const up = document.createElement('button');
        up.textContent = '↑';
        up.setAttribute('aria-label', 'move up');
        up.addEventListener('click', () => act('queueMove', { itemId: entry.itemId, to: index - 1 }));
        item.append(up);
      }
      const remove = document.createElement('button');
      remove.className = 'secondary';
      remove.textContent = '✕';
      remove.setAttribute('aria-label', 'remove');
      remove.addEventListener('click', () => act('queueRemove', { itemId: entry.itemId }));
      item.append(remove);
    }
    list.append(item);
  });
  if (!queue.length) {
    const item = document.createElement('li');
    item.className = 'muted';
    item.textContent = 'Nothing queued yet — pick a song in Songs';
    list.append(item);
  }
  const own = queue.filter(mine);
  $('queue-summary').textContent = !queue.length ? ''
    : `${queue.length} song${queue.length === 1 ? '' : 's'} waiting`
      + (own.length ? ` · your requests: ${own.length}, the first ${formatWait(own[0].startsIn, queue[0] === own[0])}` : '');
  $('queue-count').textContent = queue.length;
  $('queue-count').hidden = !queue.length;
}
