// The cards and areas an option names on the table (decision.targets): a
// click (or Enter) on one chooses its option, so a move is its card, then
// where it goes.  And the same move by dragging: the server says where each
// card may be dropped (decision.drops per option, decision.to for a plain
// play: pipvm/web/drops.py), and a drop on such an area gives the answers
// the clicks give.  A drop anywhere else does nothing.  Pointer events, so
// a mouse, a pen and a finger all drag.

let give = () => {};      // give(choices, id): answer decision id, then the next, with these

export function onGive(f) { give = f; }

// The option of the decision that names this card or area (-1: none).
export function targetOf(v, kind, name) {
  const d = v.decision;
  return d && d.targets ? d.targets.findIndex((t) => t !== null && t[kind] === name) : -1;
}

export function clickable(e, v, i) {
  if (i < 0) return e;
  const id = v.decision.id;
  e.classList.add('target');
  e.dataset.target = i;
  e.tabIndex = 0;
  e.setAttribute('role', 'button');
  e.addEventListener('click', (event) => { event.stopPropagation(); give([i], id); });
  e.addEventListener('keydown', (event) => { if (event.key === 'Enter') give([i], id); });
  return e;
}

// Where a card on the table may be dropped: area name -> the choices that
// answer it (the card's option, then the option naming the area, if asked).
export function cardDrops(v, name) {
  const d = v.decision;
  const out = new Map();
  if (!d || !d.drops || !d.targets) return out;
  d.targets.forEach((t, i) => {
    if (!t || t.card !== name) return;
    for (const drop of d.drops[i] || []) {
      if (!out.has(drop.area)) out.set(drop.area, drop.then === null ? [i] : [i, drop.then]);
    }
  });
  return out;
}

// Where a card of the hand that option i plays may be dropped: the play's area.
export function handDrops(v, i) {
  const d = v.decision;
  return new Map(d && d.kind === 'card' && d.to ? [[d.to, [i]]] : []);
}

export function draggable(e, v, drops) {
  if (!drops.size) return e;
  const id = v.decision.id;
  e.classList.add('draggable');
  e.addEventListener('pointerdown', (event) => press(event, e, drops, id));
  return e;
}

const THRESHOLD = 6;      // px a press moves before it is a drag (less: a click)
let drag = null;          // {source, drops, id, pointer, x, y, dx, dy, ghost, over}

function press(event, source, drops, id) {
  if (drag || !event.isPrimary || event.button !== 0) return;
  drag = { source, drops, id, pointer: event.pointerId, x: event.clientX, y: event.clientY,
           ghost: null, over: null };
  document.addEventListener('pointermove', move);
  document.addEventListener('pointerup', release);
  document.addEventListener('pointercancel', stop);
}

function move(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  if (!drag.ghost) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < THRESHOLD) return;
    lift();
  }
  event.preventDefault();
  drag.ghost.style.left = event.clientX - drag.dx + 'px';
  drag.ghost.style.top = event.clientY - drag.dy + 'px';
  const zone = zoneAt(event.clientX, event.clientY);
  if (zone !== drag.over) {
    if (drag.over) drag.over.classList.remove('drop-over');
    if (zone) zone.classList.add('drop-over');
    drag.over = zone;
  }
}

// The card leaves its place: a copy follows the pointer, the areas it may
// go to are marked.
function lift() {
  const r = drag.source.getBoundingClientRect();
  drag.dx = drag.x - r.left;
  drag.dy = drag.y - r.top;
  const ghost = drag.source.cloneNode(true);
  ghost.removeAttribute('data-choice');
  ghost.removeAttribute('data-target');
  ghost.setAttribute('aria-hidden', 'true');
  ghost.classList.remove('target', 'draggable', 'legal');
  ghost.classList.add('ghost');
  ghost.style.width = r.width + 'px';
  ghost.style.height = r.height + 'px';
  document.body.append(ghost);
  drag.ghost = ghost;
  document.body.classList.add('dragging');
  marked();
}

// Mark the areas the card being dragged may go to (again after the table
// is drawn anew under it).
export function marked() {
  if (!drag || !drag.ghost) return;
  for (const zone of document.querySelectorAll('[data-area]')) {
    zone.classList.toggle('drop-ok', drag.drops.has(zone.dataset.area));
  }
  for (const e of document.querySelectorAll('.card.draggable')) {
    e.classList.toggle('lifted', e.title === drag.source.title);
  }
}

function zoneAt(x, y) {
  const hit = document.elementFromPoint(x, y);       // (the copy lets the pointer through)
  const zone = hit && hit.closest('[data-area]');
  return zone && drag.drops.has(zone.dataset.area) ? zone : null;
}

function release(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  const { ghost, drops, id } = drag;
  const zone = ghost ? zoneAt(event.clientX, event.clientY) : null;
  stop();
  if (!ghost) return;                                 // a press, not a drag: the click answers
  // the click that ends a drag is not one
  const swallow = (e) => { e.stopPropagation(); e.preventDefault(); };
  window.addEventListener('click', swallow, { capture: true, once: true });
  setTimeout(() => window.removeEventListener('click', swallow, { capture: true }), 0);
  if (zone) give(drops.get(zone.dataset.area), id);
}

function stop() {
  document.removeEventListener('pointermove', move);
  document.removeEventListener('pointerup', release);
  document.removeEventListener('pointercancel', stop);
  if (drag && drag.ghost) drag.ghost.remove();
  drag = null;
  document.body.classList.remove('dragging');
  for (const e of document.querySelectorAll('.drop-ok, .drop-over, .lifted')) {
    e.classList.remove('drop-ok', 'drop-over', 'lifted');
  }
}

document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && drag) stop(); });
